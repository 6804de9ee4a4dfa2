/// An open file descriptor, typed so it cannot be mixed up with a count or a
/// status. Its methods are I/O loops that finish the job: they retry on
/// `EINTR` and continue after short reads and writes.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let standardInput = FileDescriptor(rawValue: 0)
    public static let standardOutput = FileDescriptor(rawValue: 1)
    public static let standardError = FileDescriptor(rawValue: 2)

    public var description: String { "fd \(rawValue)" }

    // MARK: Opening and closing

    /// How `open` treats a link or a special file at the path.
    public struct OpenOptions: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// Refuse a symbolic link at the last component (`ELOOP`).
        public static let noFollow = OpenOptions(rawValue: _O_NOFOLLOW)
        /// Do not wait for a FIFO's writer (a FIFO is then refused by type).
        public static let nonBlocking = OpenOptions(rawValue: _O_NONBLOCK)
    }

    /// Opens `path` for reading, close-on-exec.
    public static func openForReading(_ path: String, options: OpenOptions = []) throws(SystemError) -> FileDescriptor {
        let fd = system_open(path, _O_RDONLY | _O_CLOEXEC | options.rawValue)
        if fd < 0 { throw SystemError("open", path) }
        return FileDescriptor(rawValue: fd)
    }

    /// Opens the folder `path` (for `fsync` and as an anchor).
    public static func openDirectory(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = system_open(path, _O_RDONLY | _O_DIRECTORY | _O_CLOEXEC)
        if fd < 0 { throw SystemError("open", path) }
        return FileDescriptor(rawValue: fd)
    }

    /// A pipe: what is written to `write` is read from `read`. Close-on-exec.
    public static func pipe() throws(SystemError) -> (read: FileDescriptor, write: FileDescriptor) {
        var fds: [Int32] = [0, 0]
        guard makePipe(&fds) == 0 else { throw SystemError("pipe") }
        for fd in fds { _ = system_fcntl(fd, _F_SETFD, _FD_CLOEXEC) }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }

    /// Closes the descriptor, ignoring `EINTR` (it is gone either way on Linux).
    public func close() { _ = closeDescriptor(rawValue) }

    /// A close-on-exec duplicate numbered `minimum` or above.
    public func duplicate(atLeast minimum: Int32) throws(SystemError) -> FileDescriptor {
        let fd = system_fcntl(rawValue, _F_DUPFD_CLOEXEC, minimum)
        if fd < 0 { throw SystemError("dup", description) }
        return FileDescriptor(rawValue: fd)
    }

    /// Makes `target` refer to this descriptor's file (`dup2`).
    public func duplicate(onto target: FileDescriptor) throws(SystemError) {
        if system_dup2(rawValue, target.rawValue) < 0 { throw SystemError("dup2", description) }
    }

    /// What the descriptor refers to; nil when `fstat` fails.
    public func status() -> FileStatus? {
        var info = _stat()
        guard system_fstat(rawValue, &info) == 0 else { return nil }
        return FileStatus(info)
    }

    /// True when the descriptor is a terminal (`isatty`).
    public var isTerminal: Bool { system_isatty(rawValue) == 1 }

    /// Sets or clears `O_NONBLOCK`.
    public func setNonBlocking(_ on: Bool) {
        let flags = system_fcntl(rawValue, _F_GETFL)
        guard flags >= 0 else { return }
        _ = system_fcntl(rawValue, _F_SETFL, on ? flags | _O_NONBLOCK : flags & ~_O_NONBLOCK)
    }

    /// `fsync`; a folder on a file system that cannot sync folders is not an error.
    public func sync(_ subject: String) throws(SystemError) {
        if system_fsync(rawValue) != 0 && system_errno != _EINVAL { throw SystemError("fsync", subject) }
    }

    // MARK: Reading

    /// What one `read` gave.
    public enum ReadResult: Equatable, Sendable {
        /// This many bytes; 0 means end of input.
        case bytes(Int)
        /// A signal arrived first (the caller looks at its flags).
        case interrupted
    }

    /// One `read` into `buffer`, reporting `EINTR` instead of retrying, for
    /// loops that must notice signals.
    public func readOnce(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> ReadResult {
        let n = systemRead(rawValue, buffer.baseAddress, buffer.count)
        if n >= 0 { return .bytes(n) }
        if system_errno == _EINTR { return .interrupted }
        throw SystemError("read", description)
    }

    /// Reads up to `buffer.count` bytes, retrying on `EINTR`; 0 means end of input.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        while true {
            if case .bytes(let n) = try readOnce(into: buffer) { return n }
        }
    }

    // MARK: Writing

    /// Writes every byte of `bytes`.
    /// - Throws: `SystemError` (for example `EPIPE` when the reader is gone).
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let n = system_write(rawValue, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if n > 0 {
                offset += n
            } else if n < 0 && system_errno == _EINTR {
                continue
            } else {
                throw SystemError("write", description, code: n < 0 ? system_errno : _EIO)
            }
        }
    }

    /// Writes every byte of `bytes`.
    public func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in try writeAll(buffer) }
        }
        try result.get()
    }

    /// Writes every byte to a non-blocking descriptor, waiting for room at
    /// most `timeoutMilliseconds` in all, measured on `clock`.
    /// - Throws: `SystemError` with `ETIMEDOUT` when the reader stopped reading.
    public func writeAll(_ bytes: [UInt8], timeoutMilliseconds: Int64, clock: MonotonicClock = .system)
        throws(SystemError)
    {
        let start = clock.milliseconds
        // Saturating: a huge timeout means "for ever", never an overflow trap.
        let deadline = start.addingReportingOverflow(max(0, timeoutMilliseconds))
        let end = deadline.overflow ? Int64.max : deadline.partialValue
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                system_write(rawValue, $0.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if n > 0 {
                offset += n
                continue
            }
            let code = n < 0 ? system_errno : _EIO
            if code == _EINTR { continue }
            guard code == _EAGAIN || code == _EWOULDBLOCK else { throw SystemError("write", description, code: code) }
            let left = end - clock.milliseconds
            if left <= 0 { throw SystemError("write", "\(description) (the reader stopped reading)", code: _ETIMEDOUT) }
            var entry = _pollfd(fd: rawValue, events: Int16(_POLLOUT), revents: 0)
            _ = system_poll(&entry, 1, Int32(min(left, 1000)))
        }
    }

    // MARK: Pipes

    /// True when the descriptor is a pipe or a FIFO.
    public var isPipe: Bool { status()?.kind == .fifo }

    /// Bytes written into this pipe that its reader has not read yet
    /// (`FIONREAD`; on Linux it answers for the write end too).
    public func unreadByteCount() throws(SystemError) -> Int {
        var count: Int32 = 0
        if system_ioctl(rawValue, UInt(_FIONREAD), &count) != 0 { throw SystemError("ioctl FIONREAD", description) }
        return Int(count)
    }

    /// How `waitUntilRead` ended.
    public enum PipeReadResult: Equatable, Sendable {
        /// The reader has read every byte written into the pipe.
        case read
        /// The reader closed its end (or died) with bytes still unread.
        case readerGone
        /// A signal arrived first (the caller looks at its flags); bytes are still unread.
        case interrupted
    }

    /// Waits until the reader of this pipe (the write end) has read every
    /// byte written into it, or has gone. Looks at once; then waits on
    /// `poll` (which answers at once when the reader closes: `POLLERR`)
    /// for 1 ms, doubling up to `longestWaitMilliseconds` between looks, so
    /// a reader that keeps up costs no sleep and a slow one little CPU.
    public func waitUntilRead(longestWaitMilliseconds: Int32 = 50) throws(SystemError) -> PipeReadResult {
        var wait: Int32 = 0
        while true {
            if try unreadByteCount() == 0 { return .read }
            var entry = _pollfd(fd: rawValue, events: 0, revents: 0)
            let ready = system_poll(&entry, 1, wait)
            if ready < 0 {
                if system_errno == _EINTR { return .interrupted }
                throw SystemError("poll", description)
            }
            if ready > 0 && entry.revents & Int16(_POLLERR | _POLLHUP | _POLLNVAL) != 0 {
                // Read meanwhile, then closed: it has everything.
                return try unreadByteCount() == 0 ? .read : .readerGone
            }
            wait = wait == 0 ? 1 : min(wait * 2, max(1, longestWaitMilliseconds))
        }
    }

    // MARK: Waiting

    /// What `waitForInput` saw.
    public enum WaitResult: Equatable, Sendable {
        /// The descriptor at this index of the list is readable (or closed).
        case ready(index: Int)
        case timedOut
        case interrupted
    }

    /// Waits until one of `descriptors` has input (or end of input).
    /// - Parameters:
    ///   - descriptors: the descriptors to wait on, most urgent first.
    ///   - timeoutMilliseconds: nil waits for ever.
    /// - Returns: the first ready descriptor's index; earlier ones win.
    public static func waitForInput(_ descriptors: [FileDescriptor], timeoutMilliseconds: Int32?)
        throws(SystemError) -> WaitResult
    {
        var fds = descriptors.map { _pollfd(fd: $0.rawValue, events: Int16(_POLLIN), revents: 0) }
        let ready = system_poll(&fds, _nfds_t(fds.count), timeoutMilliseconds ?? -1)
        if ready == 0 { return .timedOut }
        if ready < 0 {
            if system_errno == _EINTR { return .interrupted }
            throw SystemError("poll", descriptors.map(\.description).joined(separator: ", "))
        }
        for (index, entry) in fds.enumerated() where entry.revents != 0 { return .ready(index: index) }
        return .timedOut
    }
}

@inline(__always)
private func closeDescriptor(_ fd: Int32) -> Int32 { system_close(fd) }

@inline(__always)
private func makePipe(_ fds: inout [Int32]) -> Int32 { system_pipe(&fds) }

@inline(__always)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    system_read(fd, buffer, count)
}
