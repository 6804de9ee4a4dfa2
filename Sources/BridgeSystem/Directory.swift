/// `open(2)` by its C name, which the type's own `open` hides inside it.
private func openFolder(_ path: String, _ flags: Int32) -> Int32 { system_open(path, flags) }

/// An open folder: every name is opened relative to it (`openat` and
/// friends) and never through a link, so nothing outside it is read, written
/// or deleted, even when a name or the folder's own path is swapped for a
/// link while it is in use. Files are opened non-blocking and their type is
/// checked after opening: a FIFO or a device is refused at once, never waited
/// on. The group container, `queue/` and `files/` are used through these.
public final class Directory {
    /// The folder's path, for messages only.
    public let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    deinit { system_close(fd) }

    /// Opens the folder at `path`; with `noFollow`, a link there is refused (`ELOOP`).
    public static func open(_ path: String, noFollow: Bool = true) throws(SystemError) -> Directory {
        let fd = openFolder(path, _O_RDONLY | _O_DIRECTORY | _O_CLOEXEC | (noFollow ? _O_NOFOLLOW : 0))
        if fd < 0 { throw SystemError("open", path) }
        return Directory(path: path, fd: fd)
    }

    private func child(_ name: String) -> String { path + "/" + name }

    /// Opens the sub-folder `name`, never a link (`ELOOP`); creates it
    /// (with `permissions`) when `create` is set and it is missing.
    public func subdirectory(_ name: String, create: Bool = false, permissions: Int = 0o700) throws(SystemError)
        -> Directory
    {
        if create && system_mkdirat(fd, name, _mode_t(permissions)) != 0 && system_errno != _EEXIST {
            throw SystemError("mkdir", child(name))
        }
        let sub = system_openat(fd, name, _O_RDONLY | _O_DIRECTORY | _O_CLOEXEC | _O_NOFOLLOW)
        if sub < 0 {
            // With O_DIRECTORY, Linux reports a link as "not a directory": say what it is.
            let failure = SystemError("open", child(name))
            if failure.code == _ENOTDIR, (try? status(name))??.isSymbolicLink == true {
                throw SystemError("open", child(name), code: _ELOOP)
            }
            throw failure
        }
        return Directory(path: child(name), fd: sub)
    }

    /// `lstat` of `name` in this folder; nil when it does not exist.
    public func status(_ name: String) throws(SystemError) -> FileStatus? {
        var info = _stat()
        if system_fstatat(fd, name, &info, _AT_SYMLINK_NOFOLLOW) == 0 { return FileStatus(info) }
        if system_errno == _ENOENT || system_errno == _ENOTDIR { return nil }
        throw SystemError("stat", child(name))
    }

    /// Opens the regular file `name` for reading: a link is refused (`ELOOP`),
    /// anything but a regular file too (`EINVAL`, `EISDIR`), without blocking.
    public func openRegularFile(_ name: String) throws(SystemError) -> (FileDescriptor, FileStatus) {
        try regularFile(system_openat(fd, name, _O_RDONLY | _O_CLOEXEC | _O_NOFOLLOW | _O_NONBLOCK), name, "read")
    }

    /// Opens the regular file `name` for reading and writing, creating it
    /// (with `permissions`) when missing: a lock file. A link is refused
    /// (`ELOOP`), anything but a regular file too, without blocking.
    public func openOrCreateRegularFile(_ name: String, permissions: Int = 0o600) throws(SystemError)
        -> FileDescriptor
    {
        let flags = _O_RDWR | _O_CREAT | _O_CLOEXEC | _O_NOFOLLOW | _O_NONBLOCK
        return try regularFile(system_openat(fd, name, flags, _mode_t(permissions)), name, "open").0
    }

    /// The descriptor `openat` returned for `name`, once it is known to be a
    /// regular file; closed and refused otherwise.
    private func regularFile(_ raw: Int32, _ name: String, _ use: String) throws(SystemError)
        -> (FileDescriptor, FileStatus)
    {
        if raw < 0 { throw SystemError("open", child(name)) }
        let file = FileDescriptor(rawValue: raw)
        guard let info = file.status() else {
            file.close()
            throw SystemError("stat", child(name))
        }
        if !info.isRegular {
            file.close()
            throw SystemError("\(use) (not a regular file)", child(name), code: info.isDirectory ? _EISDIR : _EINVAL)
        }
        return (file, info)
    }

    /// Reads the regular file `name` (at most `limit` bytes) and the identity
    /// of the version read. See `openRegularFile`.
    public func readFile(_ name: String, limit: Int = Int.max) throws(SystemError)
        -> (bytes: [UInt8], identity: FileIdentity)
    {
        let (file, info) = try openRegularFile(name)
        defer { file.close() }
        return (try FileSystem.readAll(file, status: info, path: child(name), limit: limit), info.identity)
    }

    /// `readFile`, leaving the file open: the caller owns `descriptor` (to
    /// see later whether the version read is still the one named) and closes it.
    public func openAndRead(_ name: String) throws(SystemError)
        -> (bytes: [UInt8], identity: FileIdentity, descriptor: FileDescriptor)
    {
        let (file, info) = try openRegularFile(name)
        do throws(SystemError) {
            return (try FileSystem.readAll(file, status: info, path: child(name), limit: Int.max), info.identity, file)
        } catch {
            file.close()
            throw error
        }
    }

    /// Names in the folder, without `.` and `..`, unsorted.
    public func list() throws(SystemError) -> [String] {
        let copy = system_dup(fd)
        if copy < 0 { throw SystemError("dup", path) }
        guard let dir = system_fdopendir(copy) else {
            system_close(copy)
            throw SystemError("opendir", path)
        }
        defer { system_closedir(dir) }
        system_rewinddir(dir)
        return FileSystem.names(in: dir)
    }

    /// Removes the file (or link) `name`; a missing one is not an error.
    public func remove(_ name: String) throws(SystemError) {
        if system_unlinkat(fd, name, 0) != 0 && system_errno != _ENOENT { throw SystemError("unlink", child(name)) }
    }

    /// Renames `name` to `newName` in `target` (this folder by default).
    public func move(_ name: String, to newName: String, in target: Directory? = nil) throws(SystemError) {
        if system_renameat(fd, name, (target ?? self).fd, newName) != 0 { throw SystemError("rename", child(name)) }
    }

    /// `fsync` of the folder, so a rename in it survives a crash.
    public func sync() throws(SystemError) {
        if system_fsync(fd) != 0 { throw SystemError("fsync", path) }
    }

    /// Writes `buffer` as `name` atomically: a new temporary file (`O_EXCL`,
    /// never a link), `fsync`, `rename` over `name` (or with `exclusive`,
    /// `link`, which fails with `EEXIST` instead of replacing), `fsync` of
    /// the folder. A reader sees the old or the new file; a failure leaves
    /// neither a partial file nor the temporary one.
    public func writeAtomically(
        _ name: String, _ buffer: UnsafeRawBufferPointer, permissions: Int = 0o600, exclusive: Bool = false
    ) throws(SystemError) {
        let temp = "." + name + ".tmp-" + FileSystem.hex(Platform.randomBytes(6))
        let raw = system_openat(
            fd, temp, _O_WRONLY | _O_CREAT | _O_EXCL | _O_CLOEXEC | _O_NOFOLLOW, _mode_t(permissions))
        if raw < 0 { throw SystemError("create", child(temp)) }
        let file = FileDescriptor(rawValue: raw)
        var committed = false
        defer { if !committed { system_unlinkat(fd, temp, 0) } }
        do throws(SystemError) {
            try file.writeAll(buffer)
            if system_fsync(raw) != 0 { throw SystemError("fsync", child(temp)) }
        } catch {
            file.close()
            throw SystemError("write", child(name), code: error.code)  // the file meant, not "fd 5"
        }
        if system_close(raw) != 0 { throw SystemError("close", child(temp)) }
        if exclusive {
            if system_linkat(fd, temp, fd, name, 0) != 0 { throw SystemError("link", child(name)) }
            system_unlinkat(fd, temp, 0)
        } else if system_renameat(fd, temp, fd, name) != 0 {
            throw SystemError("rename", child(name))
        }
        committed = true
        try sync()
    }

    /// Whether `name` is a temporary file `writeAtomically` makes.
    public static func isTemporary(_ name: String) -> Bool { name.hasPrefix(".") && name.contains(".tmp-") }

    /// Removes the regular files among `names` (by default this folder's
    /// temporaries) last modified more than `staleAfterSeconds` ago: what a
    /// writer that crashed, was killed or hit a file-size limit left. Returns
    /// the bytes of those it kept (a writer may be filling them now), so a
    /// quota can count them.
    public func sweep(_ names: [String]? = nil, staleAfterSeconds: Int64, now: WallTime = .now()) -> Int64 {
        let candidates = names ?? ((try? list()) ?? []).filter(Directory.isTemporary)
        var kept: Int64 = 0
        for name in candidates {
            guard let info = try? status(name), info.isRegular else { continue }
            if now.seconds - info.identity.modified / 1_000_000_000 > staleAfterSeconds {
                system_unlinkat(fd, name, 0)
            } else {
                kept += info.size
            }
        }
        return kept
    }

    /// `writeAtomically` of an array's bytes.
    public func writeAtomically(_ name: String, _ bytes: [UInt8], permissions: Int = 0o600, exclusive: Bool = false)
        throws(SystemError)
    {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in
                try writeAtomically(name, buffer, permissions: permissions, exclusive: exclusive)
            }
        }
        try result.get()
    }

    /// `writeAtomically` of a string's UTF-8, without copying it first.
    public func writeAtomically(_ name: String, utf8 text: String, permissions: Int = 0o600) throws(SystemError) {
        var text = text
        let result = text.withUTF8 { buffer in
            Result { () throws(SystemError) in
                try writeAtomically(name, UnsafeRawBufferPointer(buffer), permissions: permissions)
            }
        }
        try result.get()
    }
}
