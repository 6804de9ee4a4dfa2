/// Descriptor-level I/O loops that finish the job: they retry on `EINTR`,
/// continue after short reads and writes, and close on every path.
public enum FileIO {
    /// Writes every byte of `bytes` to `fd`.
    /// - Throws: `SystemError` (for example `EPIPE` when the reader is gone).
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let n = Platform.rawWrite(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if n > 0 {
                offset += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                throw SystemError("write", "fd \(fd)", code: n < 0 ? errno : EIO)
            }
        }
    }

    /// Writes every byte to a non-blocking `fd`, waiting for room at most
    /// `timeoutMilliseconds` in all.
    /// - Throws: `SystemError` with `ETIMEDOUT` when the reader stopped reading.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], timeoutMilliseconds: Int64) throws(SystemError) {
        let deadline = WallTime.now().milliseconds + timeoutMilliseconds
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Platform.rawWrite(fd, $0.baseAddress.map { $0 + offset }, bytes.count - offset)
            }
            if n > 0 {
                offset += n
                continue
            }
            let code = n < 0 ? errno : EIO
            if code == EINTR { continue }
            guard code == EAGAIN || code == EWOULDBLOCK else { throw SystemError("write", "fd \(fd)", code: code) }
            let left = deadline - WallTime.now().milliseconds
            if left <= 0 { throw SystemError("write", "fd \(fd) (the reader stopped reading)", code: ETIMEDOUT) }
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&entry, 1, Int32(min(left, 1000)))
        }
    }

    /// Sets or clears `O_NONBLOCK` on `fd`.
    public static func setNonBlocking(_ fd: Int32, _ on: Bool) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0 else { return }
        _ = fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK)
    }

    /// Writes every byte of `bytes` to `fd`.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemError) {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(SystemError) in try writeAll(fd, buffer) }
        }
        try result.get()
    }

    /// Reads up to `buffer.count` bytes, retrying on `EINTR`; 0 means end of input.
    public static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int {
        while true {
            let n = Platform.rawRead(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw SystemError("read", "fd \(fd)")
        }
    }

    /// Closes `fd`, ignoring `EINTR` (the descriptor is gone either way on Linux).
    public static func close(_ fd: Int32) {
        _ = BridgeSystem.closeDescriptor(fd)
    }
}

@inline(__always)
func closeDescriptor(_ fd: Int32) -> Int32 {
    close(fd)
}
