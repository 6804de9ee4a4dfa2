import BridgeJSON
import BridgeSystem

/// Reads one of a browser's own JSON files, capped and without ever trapping:
/// a browser profile is data this process did not write.
public enum ProfileFile {
    /// The largest file read: real `Preferences` files are a few hundred KiB.
    public static let defaultLimit = 32 << 20

    /// What reading a profile file gave.
    public enum Outcome: Equatable, Sendable {
        case json(JSONValue)
        /// No such file.
        case missing
        /// Present but not usable; the reason names the file and what is wrong with it.
        case unusable(String)
    }

    /// Reads and parses `path` (links followed, as the browser does; only a regular
    /// file of at most `limit` bytes is read).
    public static func readJSON(_ path: String, limit: Int = defaultLimit) -> Outcome {
        let info: FileStatus?
        do {
            info = try FileSystem.status(path, followLinks: true)
        } catch {
            return .unusable("cannot read \(path): \(error)")
        }
        guard let info else { return .missing }
        guard info.isRegular else { return .unusable("\(path) is not a regular file") }
        guard info.size <= Int64(limit) else {
            return .unusable("\(path) is \(info.size) bytes, more than the \(limit) this check reads")
        }
        let bytes: [UInt8]
        do {
            // One byte more than allowed: a file that grew since `stat` is refused, not cut short.
            bytes = try FileSystem.readFile(path, limit: limit + 1)
        } catch {
            return .unusable("cannot read \(path): \(error)")
        }
        guard bytes.count <= limit else { return .unusable("\(path) grew past \(limit) bytes while being read") }
        do {
            return .json(try JSONParser.parse(bytes))
        } catch {
            return .unusable("\(path) is not valid JSON (\(error))")
        }
    }

    /// Reads a small text file (`profiles.ini`); nil when missing, a reason when unusable.
    static func readText(_ path: String, limit: Int = 1 << 20) -> Result<String, TextFailure> {
        do {
            guard let info = try FileSystem.status(path, followLinks: true) else { return .failure(.missing) }
            guard info.isRegular, info.size <= Int64(limit) else {
                return .failure(.unusable("\(path) is not a regular file of at most \(limit) bytes"))
            }
            let bytes = try FileSystem.readFile(path, limit: limit)
            return .success(String(decoding: bytes, as: UTF8.self))
        } catch {
            return .failure(.unusable("cannot read \(path): \(error)"))
        }
    }

    /// Why `readText` gave no text.
    enum TextFailure: Error, Equatable {
        case missing
        case unusable(String)
    }

    /// True when `name` is one plain folder name (no `/`, not `.` or `..`, no NUL, not empty).
    static func isPlainName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.utf8.contains(UInt8(ascii: "/"))
            && !name.utf8.contains(0)
    }
}
