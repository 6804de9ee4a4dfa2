/// File operations on real paths. Every write that replaces a file goes
/// through a temporary file, `fsync`, `rename` and an `fsync` of the folder.
public enum FileSystem {
    /// `lstat` (or with `followLinks`, `stat`) of `path`; nil when it does not exist.
    public static func status(_ path: String, followLinks: Bool = false) throws(SystemError) -> FileStatus? {
        var info = _stat()
        let rc = followLinks ? system_stat(path, &info) : system_lstat(path, &info)
        if rc == 0 { return FileStatus(info) }
        if system_errno == _ENOENT || system_errno == _ENOTDIR { return nil }
        throw SystemError("stat", path)
    }

    /// The identity of `path` (following links), or nil when it does not exist.
    public static func identity(_ path: String) throws(SystemError) -> FileIdentity? {
        try status(path, followLinks: true)?.identity
    }

    /// True when `path` names a file this process may execute.
    public static func isExecutable(_ path: String) -> Bool { system_access(path, _X_OK) == 0 }

    /// Creates `path` and its missing parents with `permissions`.
    public static func makeDirectories(_ path: String, permissions: Int = 0o700) throws(SystemError) {
        if let info = try status(path, followLinks: true) {
            if info.isDirectory { return }
            throw SystemError("mkdir", path, code: _ENOTDIR)
        }
        let parent = parentPath(path)
        if parent != path && !parent.isEmpty { try makeDirectories(parent, permissions: permissions) }
        if system_mkdir(path, _mode_t(permissions)) != 0 && system_errno != _EEXIST { throw SystemError("mkdir", path) }
    }

    /// Creates the one folder `path` with `permissions`; refuses a link or a
    /// non-folder already there (`ELOOP`, `ENOTDIR`). An existing folder is fine.
    public static func makeDirectory(_ path: String, permissions: Int = 0o700) throws(SystemError) {
        if let info = try status(path) {
            if info.isSymbolicLink { throw SystemError("open", path, code: _ELOOP) }
            if !info.isDirectory { throw SystemError("mkdir", path, code: _ENOTDIR) }
            return
        }
        if system_mkdir(path, _mode_t(permissions)) != 0 && system_errno != _EEXIST { throw SystemError("mkdir", path) }
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
        let fd = try FileDescriptor.openForReading(
            path, options: noFollow ? [.noFollow, .nonBlocking] : [.nonBlocking])
        defer { fd.close() }
        return try readAll(fd, path: path, limit: limit)
    }

    /// `readFileAndIdentity`, leaving the file open: the caller owns `descriptor`
    /// (for `FileIdentity.current(of:)`) and closes it.
    public static func openAndRead(_ path: String) throws(SystemError)
        -> (bytes: [UInt8], identity: FileIdentity, descriptor: FileDescriptor)
    {
        let fd = try FileDescriptor.openForReading(path, options: .nonBlocking)
        do throws(SystemError) {
            let (bytes, identity) = try readAll(fd, path: path, limit: Int.max)
            return (bytes, identity, fd)
        } catch {
            fd.close()
            throw error
        }
    }

    /// Reads a regular file's bytes. The file is opened non-blocking, so a
    /// FIFO put where a file belongs is refused here by its type instead of
    /// hanging the open (for a regular file the flag changes nothing).
    private static func readAll(_ fd: FileDescriptor, path: String, limit: Int) throws(SystemError)
        -> (bytes: [UInt8], identity: FileIdentity)
    {
        guard let info = fd.status() else { throw SystemError("stat", path) }
        if !info.isRegular { throw SystemError("read", path, code: info.isDirectory ? _EISDIR : _EINVAL) }
        return (try readAll(fd, status: info, path: path, limit: limit), info.identity)
    }

    /// Reads the bytes of the regular file open as `fd`, whose `status` the
    /// caller has checked, up to `limit`.
    static func readAll(_ fd: FileDescriptor, status info: FileStatus, path: String, limit: Int) throws(SystemError)
        -> [UInt8]
    {
        let expected = Int(clamping: min(info.size, Int64(limit)))
        // Read straight into uninitialized storage: no zero-filling of a buffer
        // the read overwrites (a large suite would be written twice).
        var failure: SystemError?
        let bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
            if expected >= 256 << 10, let base = buffer.baseAddress { Platform.prefault(base, count: expected) }
            while count < expected {
                do throws(SystemError) {
                    let n = try fd.read(
                        into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[count...])))
                    if n == 0 { break }
                    count += n
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Writes `bytes` to `path` atomically: temporary file beside it, `fsync`,
    /// `rename`, `fsync` of the folder. A reader sees the old or the new file.
    /// - Parameters:
    ///   - path: the file to write.
    ///   - bytes: its new content.
    ///   - permissions: the new file's mode bits.
    ///   - exclusive: when true, fails with `EEXIST` instead of replacing.
    public static func writeAtomically(
        _ path: String, _ bytes: [UInt8], permissions: Int = 0o600, exclusive: Bool = false
    ) throws(SystemError) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in
                try writeAtomically(path, buffer, permissions: permissions, exclusive: exclusive)
            }
        }
        try result.get()
    }

    /// Writes a string's UTF-8 atomically, without copying it first (a saved
    /// page can be 64 MiB).
    public static func writeAtomically(
        _ path: String, utf8 text: String, permissions: Int = 0o600, exclusive: Bool = false
    ) throws(SystemError) {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(SystemError) in
                try writeAtomically(
                    path, UnsafeRawBufferPointer(buffer), permissions: permissions, exclusive: exclusive)
            }
        }
        try result.get()
    }

    /// Writes the bytes in `buffer` to `path` atomically (see above).
    public static func writeAtomically(
        _ path: String, _ buffer: UnsafeRawBufferPointer, permissions: Int = 0o600, exclusive: Bool = false
    ) throws(SystemError) {
        let folder = parentPath(path)
        let temp = folder + "/." + lastComponent(path) + ".tmp-" + hex(Platform.randomBytes(6))
        let raw = system_open(temp, _O_WRONLY | _O_CREAT | _O_EXCL | _O_CLOEXEC | _O_NOFOLLOW, _mode_t(permissions))
        if raw < 0 { throw SystemError("create", temp) }
        let fd = FileDescriptor(rawValue: raw)
        var committed = false
        defer { if !committed { system_unlink(temp) } }
        do throws(SystemError) {
            try fd.writeAll(buffer)
            if system_fsync(raw) != 0 { throw SystemError("fsync", temp) }
        } catch {
            fd.close()
            throw error
        }
        if system_close(raw) != 0 { throw SystemError("close", temp) }
        if exclusive {
            // link() fails if the target exists, so no item is ever overwritten.
            if system_link(temp, path) != 0 { throw SystemError("link", path) }
            system_unlink(temp)
        } else if system_rename(temp, path) != 0 {
            throw SystemError("rename", path)
        }
        committed = true
        try syncDirectory(folder)
    }

    /// Reads into `bytes[offset...]` from `fd`; returns the count (0 at end).
    public static func readInto(_ bytes: inout [UInt8], from offset: Int, fd: FileDescriptor) throws(SystemError) -> Int
    {
        let result = bytes.withUnsafeMutableBytes { buf in
            Result { () throws(SystemError) -> Int in
                try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: buf[offset...]))
            }
        }
        return try result.get()
    }

    /// `fsync` of a folder, so a rename in it survives a crash.
    public static func syncDirectory(_ path: String) throws(SystemError) {
        let fd = try FileDescriptor.openDirectory(path)
        defer { fd.close() }
        try fd.sync(path)
    }

    /// Names in a folder, without `.` and `..`, unsorted.
    public static func listDirectory(_ path: String) throws(SystemError) -> [String] {
        guard let dir = system_opendir(path) else { throw SystemError("opendir", path) }
        defer { system_closedir(dir) }
        return names(in: dir)
    }

    /// The names an open directory stream lists, without `.` and `..`.
    static func names(in dir: OpaquePointer) -> [String] {
        var names: [String] = []
        while let entry = system_readdir(dir) {
            // Read the name in place, up to its NUL: the record is only d_reclen bytes long, so
            // copying `entry.pointee` (sizeof(dirent)) reads past the end of readdir's buffer.
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// What the symbolic link at `path` points at, as written in the link (not
    /// resolved); nil when `path` is not a link or does not exist.
    public static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = system_readlink(path, &buffer, 4096)
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes a file; a missing file is not an error.
    public static func remove(_ path: String) throws(SystemError) {
        if system_unlink(path) != 0 && system_errno != _ENOENT { throw SystemError("unlink", path) }
    }

    /// Makes a symbolic link at `path` whose target is `target` (as written: relative targets stay relative).
    public static func makeSymbolicLink(_ path: String, pointingTo target: String) throws(SystemError) {
        if system_symlink(target, path) != 0 { throw SystemError("symlink", path) }
    }

    /// Renames `from` to `to`.
    public static func move(_ from: String, _ to: String) throws(SystemError) {
        if system_rename(from, to) != 0 { throw SystemError("rename", from) }
    }

    /// `path` made absolute against `folder` (itself absolute), written plainly: `.` and empty
    /// components dropped, `..` taking away the component before it (by the text, as a shell's `cd`
    /// does, not through links). An absolute `path` is only written plainly.
    public static func absolutePath(_ path: String, from folder: String) -> String {
        var parts: [Substring] = []
        for part in ((path.hasPrefix("/") ? "" : folder + "/") + path).split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
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

extension FileSystem {
    /// The process's working directory; nil when it cannot be had.
    public static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        guard system_getcwd(&buffer, 4096) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension FileSystem {
    /// Removes `path` and, for a folder, everything in it; links are removed,
    /// never followed. A missing path is not an error.
    public static func removeTree(_ path: String) throws(SystemError) {
        guard let info = try status(path) else { return }
        if info.isDirectory {
            for name in try listDirectory(path) { try removeTree(path + "/" + name) }
            if system_rmdir(path) != 0 && system_errno != _ENOENT { throw SystemError("rmdir", path) }
        } else {
            try remove(path)
        }
    }
}

extension FileSystem {
    /// Removes the folder `path` if it is empty; anything else is left (and not an error).
    public static func removeEmptyDirectory(_ path: String) {
        _ = system_rmdir(path)
    }

    /// `path` with every link and `.`/`..` resolved (`realpath`); nil when it does not exist.
    public static func resolvedPath(_ path: String) -> String? {
        guard let resolved = system_realpath(path, nil) else { return nil }
        defer { system_free(resolved) }
        return String(cString: resolved)
    }
}
