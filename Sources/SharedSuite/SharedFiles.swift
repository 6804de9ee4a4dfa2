import BridgeJSON
import BridgeSystem

/// Named files in the group container's `files/` folder: the counterpart of
/// the App Group's shared file container.
///
/// Names are plain: not empty, at most 255 bytes, no `/`, no leading dot
/// (`.` and `..` included), no control characters (`DisplayText.isControl`:
/// NUL, C0, DEL, C1, bidi controls). Every operation opens `files/` once, never
/// as a link, and works relative to that open folder (`Directory`), so
/// nothing is read, written or deleted outside the container through a link,
/// even one swapped in meanwhile; FIFOs and devices are refused by type.
public struct SharedFiles: Sendable {
    public let container: GroupContainer

    public init(container: GroupContainer) { self.container = container }

    /// Refuses names that could escape the folder or hide in it.
    public static func validate(name: String) throws(SuiteError) {
        if name.isEmpty { throw .invalidName(name, reason: "the name is empty") }
        if name.utf8.count > 255 { throw .invalidName(name, reason: "longer than 255 bytes") }
        if name.hasPrefix(".") { throw .invalidName(name, reason: "names may not start with '.'") }
        if name.utf8.contains(UInt8(ascii: "/")) { throw .invalidName(name, reason: "names may not contain '/'") }
        if name.utf8.contains(0) { throw .invalidName(name, reason: "names may not contain NUL") }
        if name.unicodeScalars.contains(where: { DisplayText.isControl($0.value) }) {
            throw .invalidName(name, reason: "names may not contain control characters (C0, DEL, C1) or bidi controls")
        }
    }

    static let folderName = "files"

    /// `files/`, open; nil when it does not exist yet.
    private func folder(create: Bool = false) throws(SuiteError) -> Directory? {
        try container.folder(SharedFiles.folderName, create: create)
    }

    /// Writes `bytes` as `name`, replacing any file of that name atomically.
    public func write(_ name: String, _ bytes: [UInt8]) throws(SuiteError) {
        try SharedFiles.validate(name: name)
        guard let folder = try folder(create: true) else { throw .notFound("the files folder") }
        try SuiteError.wrap { () throws(SystemError) in try folder.writeAtomically(name, bytes, permissions: 0o600) }
    }

    /// Writes a string's UTF-8 as `name` without copying it first.
    public func write(_ name: String, utf8 text: String) throws(SuiteError) {
        try SharedFiles.validate(name: name)
        guard let folder = try folder(create: true) else { throw .notFound("the files folder") }
        try SuiteError.wrap { () throws(SystemError) in try folder.writeAtomically(name, utf8: text, permissions: 0o600)
        }
    }

    /// Reads `name`, at most `limit` bytes.
    /// - Throws: `.notFound` when there is no such file; `.io` with `ELOOP` for
    ///   a link, `EINVAL` for a FIFO or device (refused without waiting).
    public func read(_ name: String, limit: Int = Int.max) throws(SuiteError) -> [UInt8] {
        try SharedFiles.validate(name: name)
        guard let folder = try folder() else { throw .notFound("shared file '\(name)'") }
        do {
            return try folder.readFile(name, limit: limit).bytes
        } catch {
            if error.isNotFound { throw .notFound("shared file '\(name)'") }
            throw .io(error)
        }
    }

    /// Deletes `name` (a link of that name is removed, never followed).
    /// - Throws: `.notFound` when there is no such file.
    public func delete(_ name: String) throws(SuiteError) {
        try SharedFiles.validate(name: name)
        guard let folder = try folder(),
            try SuiteError.wrap({ () throws(SystemError) in try folder.status(name) }) != nil
        else { throw .notFound("shared file '\(name)'") }
        try SuiteError.wrap { () throws(SystemError) in try folder.remove(name) }
    }

    /// One listed file.
    public struct Entry: Equatable, Sendable {
        public var name: String
        public var size: Int
    }

    /// Regular files in the folder, sorted by name; hidden temporaries skipped.
    public func list() throws(SuiteError) -> [Entry] {
        guard let folder = try folder() else { return [] }
        var entries: [Entry] = []
        try SuiteError.wrap { () throws(SystemError) in
            for name in try folder.list().sorted() where !name.hasPrefix(".") {
                guard let info = try folder.status(name), info.isRegular else { continue }
                entries.append(Entry(name: name, size: Int(info.size)))
            }
        }
        return entries
    }
}
