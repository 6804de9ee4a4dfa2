/// What identifies one version of a file cheaply: a changed file has a new
/// inode (atomic rename), size, or modification time.
public struct FileIdentity: Equatable, Sendable {
    /// The identity of the open file `fd` and whether it still has a name
    /// (a link count above 0): nil when `fstat` fails. A file replaced by a
    /// rename or unlinked has no name left.
    public static func current(of fd: Int32) -> (identity: FileIdentity, linked: Bool)? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return (FileIdentity(info), info.st_nlink > 0)
    }

    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modified: Int64
    public var changed: Int64

    public init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Platform.modificationNanoseconds(info)
        changed = Platform.changeNanoseconds(info)
    }
}

/// File operations on real paths. Every write that replaces a file goes
/// through a temporary file, `fsync`, `rename` and an `fsync` of the folder.
public enum FileSystem {
    /// `lstat` of `path`, or nil when it does not exist.
    public static func status(_ path: String, followLinks: Bool = false) throws(SystemError) -> stat? {
        var info = stat()
        let rc = followLinks ? stat(path, &info) : lstat(path, &info)
        if rc == 0 { return info }
        if errno == ENOENT || errno == ENOTDIR { return nil }
        throw SystemError("stat", path)
    }

    /// The identity of `path` (following links), or nil when it does not exist.
    public static func identity(_ path: String) throws(SystemError) -> FileIdentity? {
        try status(path, followLinks: true).map(FileIdentity.init)
    }

    /// True when `info` describes a directory.
    public static func isDirectory(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFDIR }
    /// True when `info` describes a symbolic link.
    public static func isSymlink(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFLNK }
    /// True when `info` describes a regular file.
    public static func isRegular(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFREG }

    /// Creates `path` and its missing parents with `mode`.
    public static func makeDirectories(_ path: String, mode: mode_t = 0o700) throws(SystemError) {
        if let info = try status(path, followLinks: true) {
            if isDirectory(info) { return }
            throw SystemError("mkdir", path, code: ENOTDIR)
        }
        let parent = parentPath(path)
        if parent != path && !parent.isEmpty { try makeDirectories(parent, mode: mode) }
        if mkdir(path, mode) != 0 && errno != EEXIST { throw SystemError("mkdir", path) }
    }

    /// Reads a whole regular file. With `noFollow`, a symlink at `path` is refused.
    public static func readFile(_ path: String, noFollow: Bool = false, limit: Int = Int.max) throws(SystemError)
        -> [UInt8]
    {
        try readFileAndIdentity(path, noFollow: noFollow, limit: limit).bytes
    }

    /// Reads a whole regular file and the identity of the very version read
    /// (`fstat` of the open descriptor), so a cache keyed by it is never stale.
    public static func readFileAndIdentity(_ path: String, noFollow: Bool = false, limit: Int = Int.max)
        throws(SystemError) -> (bytes: [UInt8], identity: FileIdentity)
    {
        let flags = O_RDONLY | O_CLOEXEC | (noFollow ? O_NOFOLLOW : 0)
        let fd = open(path, flags)
        if fd < 0 { throw SystemError("open", path) }
        defer { FileIO.close(fd) }
        return try readAll(fd, path: path, limit: limit)
    }

    /// `readFileAndIdentity`, leaving the file open: the caller owns `descriptor`
    /// (for `FileIdentity.current(of:)`) and closes it.
    public static func openAndRead(_ path: String) throws(SystemError)
        -> (bytes: [UInt8], identity: FileIdentity, descriptor: Int32)
    {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw SystemError("open", path) }
        do throws(SystemError) {
            let (bytes, identity) = try readAll(fd, path: path, limit: Int.max)
            return (bytes, identity, fd)
        } catch {
            FileIO.close(fd)
            throw error
        }
    }

    private static func readAll(_ fd: Int32, path: String, limit: Int) throws(SystemError)
        -> (bytes: [UInt8], identity: FileIdentity)
    {
        var info = stat()
        if fstat(fd, &info) != 0 { throw SystemError("stat", path) }
        if !isRegular(info) { throw SystemError("read", path, code: EISDIR) }
        let expected = min(Int(info.st_size), limit)
        // Read straight into uninitialized storage: no zero-filling of a buffer
        // the read overwrites (a large suite would be written twice).
        var failure: SystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            if expected >= 256 << 10, let base = buffer.baseAddress { Platform.prefault(base, count: expected) }
            while count < expected {
                do throws(SystemError) {
                    let n = try FileIO.readSome(
                        fd, into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...])))
                    if n == 0 { break }
                    count += n
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
        return (bytes, FileIdentity(info))
    }

    /// Writes `bytes` to `path` atomically: temporary file beside it, `fsync`,
    /// `rename`, `fsync` of the folder. A reader sees the old or the new file.
    /// - Parameter exclusive: when true, fails with `EEXIST` instead of replacing.
    public static func writeAtomically(
        _ path: String, _ bytes: [UInt8], mode: mode_t = 0o600, exclusive: Bool = false
    ) throws(SystemError) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in try writeAtomically(path, buffer, mode: mode, exclusive: exclusive) }
        }
        try result.get()
    }

    /// Writes a string's UTF-8 atomically, without copying it first (a saved
    /// page can be 64 MiB).
    public static func writeAtomically(
        _ path: String, utf8 text: String, mode: mode_t = 0o600, exclusive: Bool = false
    ) throws(SystemError) {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(SystemError) in
                try writeAtomically(path, UnsafeRawBufferPointer(buffer), mode: mode, exclusive: exclusive)
            }
        }
        try result.get()
    }

    /// Writes the bytes in `buffer` to `path` atomically (see above).
    public static func writeAtomically(
        _ path: String, _ buffer: UnsafeRawBufferPointer, mode: mode_t = 0o600, exclusive: Bool = false
    ) throws(SystemError) {
        let folder = parentPath(path)
        let temp = folder + "/." + lastComponent(path) + ".tmp-" + hex(Platform.randomBytes(6))
        let fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        if fd < 0 { throw SystemError("create", temp) }
        var committed = false
        defer { if !committed { unlink(temp) } }
        do throws(SystemError) {
            try FileIO.writeAll(fd, buffer)
            if fsync(fd) != 0 { throw SystemError("fsync", temp) }
        } catch {
            FileIO.close(fd)
            throw error
        }
        if close(fd) != 0 { throw SystemError("close", temp) }
        if exclusive {
            // link() fails if the target exists, so no item is ever overwritten.
            if link(temp, path) != 0 { throw SystemError("link", path) }
            unlink(temp)
        } else if rename(temp, path) != 0 {
            throw SystemError("rename", path)
        }
        committed = true
        try syncDirectory(folder)
    }

    /// Reads into `bytes[offset...]` from `fd`; returns the count (0 at end).
    public static func readInto(_ bytes: inout [UInt8], from offset: Int, fd: Int32) throws(SystemError) -> Int {
        let result = bytes.withUnsafeMutableBytes { buf in
            Result { () throws(SystemError) -> Int in
                try FileIO.readSome(fd, into: UnsafeMutableRawBufferPointer(rebasing: buf[offset...]))
            }
        }
        return try result.get()
    }

    /// `fsync` of a folder, so a rename in it survives a crash.
    public static func syncDirectory(_ path: String) throws(SystemError) {
        let fd = open(path, Platform.openDirectoryFlags)
        if fd < 0 { throw SystemError("open", path) }
        defer { FileIO.close(fd) }
        if fsync(fd) != 0 && errno != EINVAL { throw SystemError("fsync", path) }
    }

    /// Names in a folder, without `.` and `..`, unsorted.
    public static func listDirectory(_ path: String) throws(SystemError) -> [String] {
        guard let dir = opendir(path) else { throw SystemError("opendir", path) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            // Read the name in place, up to its NUL: the record is only d_reclen bytes long, so
            // copying `entry.pointee` (sizeof(dirent)) reads past the end of readdir's buffer.
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes a file; a missing file is not an error.
    public static func remove(_ path: String) throws(SystemError) {
        if unlink(path) != 0 && errno != ENOENT { throw SystemError("unlink", path) }
    }

    /// Renames `from` to `to`.
    public static func move(_ from: String, _ to: String) throws(SystemError) {
        if rename(from, to) != 0 { throw SystemError("rename", from) }
    }

    /// Everything before the last `/`.
    public static func parentPath(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// Everything after the last `/`.
    public static func lastComponent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Lower-case hex of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
