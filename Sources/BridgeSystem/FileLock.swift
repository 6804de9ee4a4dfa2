/// An exclusive advisory lock (`flock`) on a lock file, held until `release`
/// or until the lock is freed. Writers of one file agree on one lock file.
public final class FileLock {
    private var descriptor: FileDescriptor?
    public let path: String

    private init(_ descriptor: FileDescriptor, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Why a lock could not be had.
    public enum Failure: Error, Equatable, Sendable {
        /// Another holder kept it past the timeout.
        case timedOut
        case system(SystemError)
    }

    /// Opens (creating, mode 0600) the regular file `name` in `folder` —
    /// never through a link, never anything but a regular file — and takes an
    /// exclusive lock on it, retrying every 2 ms until `timeoutMilliseconds`
    /// have passed on `clock`.
    public static func acquire(
        _ name: String, in folder: Directory, timeoutMilliseconds: Int64, clock: MonotonicClock = .system
    ) throws(Failure) -> FileLock {
        let fd: FileDescriptor
        do {
            fd = try folder.openOrCreateRegularFile(name, permissions: 0o600)
        } catch {
            throw .system(error)
        }
        let path = folder.path + "/" + name
        try retry(fd, path: path, call: "flock", busy: [_EWOULDBLOCK], timeoutMilliseconds, clock) {
            system_flock(fd.rawValue, _LOCK_EX | _LOCK_NB)
        }
        return FileLock(fd, path: path)
    }

    /// Takes an exclusive `flock` on the folder at `path` itself, opened
    /// without following a link: the writers of a folder's files agree on the
    /// folder, and no lock file is left behind in it. Retries every 2 ms
    /// until `timeoutMilliseconds` have passed on `clock`.
    public static func acquire(folder path: String, timeoutMilliseconds: Int64, clock: MonotonicClock = .system)
        throws(Failure) -> FileLock
    {
        let raw = system_open(path, _O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW | _O_CLOEXEC)
        if raw < 0 { throw .system(SystemError("open", path)) }
        let fd = FileDescriptor(rawValue: raw)
        try retry(fd, path: path, call: "flock", busy: [_EWOULDBLOCK], timeoutMilliseconds, clock) {
            system_flock(fd.rawValue, _LOCK_EX | _LOCK_NB)
        }
        return FileLock(fd, path: path)
    }

    /// Tries `attempt` until it returns 0, every 2 ms while it fails with one of the `busy`
    /// codes and `timeoutMilliseconds` have not passed on `clock` (EINTR: at once); on any other
    /// failure or the timeout, closes `fd` and throws.
    private static func retry(
        _ fd: FileDescriptor, path: String, call: String, busy: [Int32], _ timeoutMilliseconds: Int64,
        _ clock: MonotonicClock, _ attempt: () -> Int32
    ) throws(Failure) {
        let deadline = clock.milliseconds + max(0, timeoutMilliseconds)
        while attempt() != 0 {
            let code = system_errno
            if code == _EINTR { continue }
            if !busy.contains(code) {
                fd.close()
                throw .system(SystemError(call, path, code: code))
            }
            if clock.milliseconds >= deadline {
                fd.close()
                throw .timedOut
            }
            Platform.sleep(milliseconds: 2)
        }
    }

    /// Opens (creating, mode 0600) the regular file `name` in `folder` as
    /// `acquire` does and takes an exclusive lock on its one byte at
    /// `offset` only: an open-file-description lock (`F_OFD_SETLK`, so two
    /// descriptors of one process exclude each other too, and closing any
    /// other descriptor of the file does not drop it; the holder's exit
    /// releases it). Locks on other bytes, and `flock`s of the file, are
    /// independent of it. Retries every 2 ms until `timeoutMilliseconds`
    /// have passed (0: one try).
    public static func acquireByte(
        _ offset: Int64, of name: String, in folder: Directory, timeoutMilliseconds: Int64,
        clock: MonotonicClock = .system
    ) throws(Failure) -> FileLock {
        let fd: FileDescriptor
        do {
            fd = try folder.openOrCreateRegularFile(name, permissions: 0o600)
        } catch {
            throw .system(error)
        }
        let path = folder.path + "/" + name
        var range = _flock()
        range.l_type = Int16(_F_WRLCK)
        range.l_whence = Int16(_SEEK_SET)
        range.l_start = _off_t(max(0, offset))
        range.l_len = 1
        try retry(fd, path: path, call: "fcntl F_OFD_SETLK", busy: [_EAGAIN, _EACCES], timeoutMilliseconds, clock) {
            system_fcntl(fd.rawValue, openFileDescriptionSetLock, &range)
        }
        return FileLock(fd, path: path)
    }

    /// Releases the lock (closing the file releases it).
    public func release() {
        descriptor?.close()
        descriptor = nil
    }

    deinit { release() }
}

#if os(Linux)
    /// `F_OFD_SETLK` (Linux 3.15), defined by <fcntl.h> only under `_GNU_SOURCE`.
    private let openFileDescriptionSetLock: Int32 = 37
#else
    /// Elsewhere, a process-associated lock: the CLI and the host are separate
    /// processes, and each takes one claim at a time.
    private let openFileDescriptionSetLock: Int32 = _F_SETLK
#endif
