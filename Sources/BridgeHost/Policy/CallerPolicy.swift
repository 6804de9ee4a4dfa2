import BridgeSystem

/// The callers the host serves: origins (`chrome-extension://ID/`) and
/// Firefox add-on ids.
///
/// Source, in order: `EXTENSION_BRIDGE_ALLOWED_CALLERS` (comma-separated;
/// replaces the file), else `extension-bridge-host.allowed` beside the host
/// binary (one entry a line, `#` comments), written by `extension-bridge install`.
public struct CallerPolicy: Equatable, Sendable {
    /// The allowlist file's name, beside the host binary.
    public static let fileName = "extension-bridge-host.allowed"

    /// The allowed callers, in file order without repeats. An array, not a
    /// set: the list is a handful of entries, and instantiating a generic Set
    /// was a sixth of a one-shot host's start-up.
    public var allowed: [String]
    /// Where the list came from, for messages.
    public var source: String

    public init(allowed: [String], source: String) {
        self.allowed = allowed
        self.source = source
    }

    /// Parses an allowlist: entries separated by newlines or commas, `#`
    /// comments to the end of the line, spaces and tabs around entries ignored.
    public static func parse(_ text: String) -> [String] {
        var out: [String] = []
        var entry: [UInt8] = []
        var inComment = false
        func finish() {
            while let last = entry.last, last == 0x20 || last == 0x09 { entry.removeLast() }
            var start = 0
            while start < entry.count, entry[start] == 0x20 || entry[start] == 0x09 { start += 1 }
            if start < entry.count {
                var value = String(decoding: entry[start...], as: UTF8.self)
                if value.hasPrefix("chrome-extension://") { value = Caller.normalizedOrigin(value) }
                if !out.contains(value) { out.append(value) }
            }
            entry.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            switch byte {
            case 0x0A, 0x0D:
                finish()
                inComment = false
            case UInt8(ascii: "#"):
                finish()
                inComment = true
            case UInt8(ascii: ","):
                if !inComment { finish() }
            default:
                if !inComment { entry.append(byte) }
            }
        }
        finish()
        return out
    }

    /// Loads the policy from the environment or the file beside `executablePath`.
    /// The executable's path is looked up only when the environment has no list.
    public static func load(environment: Environment, executablePath: @autoclosure () -> String?) -> CallerPolicy {
        if let list = environment["EXTENSION_BRIDGE_ALLOWED_CALLERS"] {
            return CallerPolicy(allowed: parse(list), source: "EXTENSION_BRIDGE_ALLOWED_CALLERS")
        }
        guard let executablePath = executablePath() else { return CallerPolicy(allowed: [], source: "no allowlist") }
        let path = FileSystem.parentPath(executablePath) + "/" + fileName
        guard let bytes = try? FileSystem.readFile(path, limit: 1 << 20) else {
            return CallerPolicy(allowed: [], source: "missing \(path)")
        }
        return CallerPolicy(allowed: parse(String(decoding: bytes, as: UTF8.self)), source: path)
    }

    /// True when `caller` may use the host.
    public func allows(_ caller: Caller) -> Bool { allowed.contains(caller.identity) }
}
