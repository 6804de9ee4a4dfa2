import BridgeJSON
import BridgeSystem

/// Named files in the group container's `files/` folder: the counterpart of
/// the App Group's shared file container.
///
/// Names are plain: not empty, at most 255 bytes, no `/`, no leading dot
/// (`.` and `..` included), no control characters (`DisplayText.isControl`:
/// NUL, C0, DEL, C1, bidi controls). Files are written atomically and opened with
/// `O_NOFOLLOW`; a `files/` folder that is a symlink is refused, so nothing is
/// read or written outside the container through a link.
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

    private func path(_ name: String) -> String { container.filesPath + "/" + name }

    /// Writes `bytes` as `name`, replacing any file of that name atomically.
    public func write(_ name: String, _ bytes: [UInt8]) throws(SuiteError) {
        try SharedFiles.validate(name: name)
        try container.createFolder(container.filesPath)
        try SuiteError.wrap { () throws(SystemError) in
            try FileSystem.writeAtomically(path(name), bytes, permissions: 0o600)
        }
    }

    /// Writes a string's UTF-8 as `name` without copying it first.
    public func write(_ name: String, utf8 text: String) throws(SuiteError) {
        try SharedFiles.validate(name: name)
        try container.createFolder(container.filesPath)
        try SuiteError.wrap { () throws(SystemError) in
            try FileSystem.writeAtomically(path(name), utf8: text, permissions: 0o600)
        }
    }

    /// Reads `name`, at most `limit` bytes.
    /// - Throws: `.notFound` when there is no such file; `.io(ELOOP)` for a symlink.
    public func read(_ name: String, limit: Int = Int.max) throws(SuiteError) -> [UInt8] {
        try SharedFiles.validate(name: name)
        try refuseLinkedFolder()
        do {
            return try FileSystem.readFile(path(name), noFollow: true, limit: limit)
        } catch {
            if error.isNotFound { throw .notFound("shared file '\(name)'") }
            throw .io(error)
        }
    }

    /// Deletes `name`.
    /// - Throws: `.notFound` when there is no such file.
    public func delete(_ name: String) throws(SuiteError) {
        try SharedFiles.validate(name: name)
        try refuseLinkedFolder()
        guard (try? FileSystem.status(path(name))) != nil else { throw .notFound("shared file '\(name)'") }
        try SuiteError.wrap { () throws(SystemError) in try FileSystem.remove(path(name)) }
    }

    /// One listed file.
    public struct Entry: Equatable, Sendable {
        public var name: String
        public var size: Int
    }

    /// Regular files in the folder, sorted by name; hidden temporaries skipped.
    public func list() throws(SuiteError) -> [Entry] {
        try refuseLinkedFolder()
        let names: [String]
        do {
            names = try FileSystem.listDirectory(container.filesPath)
        } catch {
            if error.isNotFound { return [] }
            throw .io(error)
        }
        var entries: [Entry] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            guard let info = try SuiteError.wrap({ () throws(SystemError) in try FileSystem.status(path(name)) }),
                info.isRegular
            else { continue }
            entries.append(Entry(name: name, size: Int(info.size)))
        }
        return entries
    }

    private func refuseLinkedFolder() throws(SuiteError) {
        let folder = container.filesPath
        if let info = try SuiteError.wrap({ () throws(SystemError) in try FileSystem.status(folder) }),
            info.isSymbolicLink
        {
            throw .io(SystemError("open", folder, code: Errno.tooManyLinks))
        }
    }
}
