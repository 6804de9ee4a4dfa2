/// Unix-domain sockets, named by a path in the file system: only processes that may
/// reach the path (its folders' permissions) can connect, unlike a TCP port, which
/// every local user can. `extension-bridge run` receives the hosts' trace records on
/// a datagram socket and talks to Firefox's debugging server on a stream socket, both
/// inside its private folder (mode 0700).
public enum LocalSocket {
    /// The longest path a socket may have, in bytes (`sockaddr_un.sun_path` less its NUL).
    public static var maximumPathBytes: Int { MemoryLayout.size(ofValue: _sockaddr_un().sun_path) - 1 }

    /// A datagram socket bound at `path`, non-blocking and
    /// close-on-exec: each `readOnce` gives one datagram, which a longer buffer than
    /// the datagram keeps whole.
    /// - Parameters:
    ///   - path: where to bind; nothing may exist there.
    ///   - receiveBufferBytes: asks the kernel for this much queue (it may give less).
    public static func bindDatagram(_ path: String, receiveBufferBytes: Int32 = 4 << 20) throws(SystemError)
        -> FileDescriptor
    {
        let fd = try makeSocket(_SOCK_DGRAM, path)
        var size = receiveBufferBytes
        _ = system_setsockopt(fd.rawValue, _SOL_SOCKET, _SO_RCVBUF, &size, _socklen_t(MemoryLayout<Int32>.size))
        let result = try withAddress(path) { system_bind(fd.rawValue, $0, $1) }
        if result != 0 {
            let error = SystemError("bind", path)
            fd.close()
            throw error
        }
        fd.setNonBlocking(true)
        return fd
    }

    /// A datagram socket connected to `path`, non-blocking and close-on-exec: each
    /// `sendDatagram` is one datagram, dropped rather than waited for when the
    /// receiver's queue is full.
    public static func connectDatagram(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = try makeSocket(_SOCK_DGRAM, path)
        let result = try withAddress(path) { system_connect(fd.rawValue, $0, $1) }
        if result != 0 {
            let error = SystemError("connect", path)
            fd.close()
            throw error
        }
        fd.setNonBlocking(true)
        return fd
    }

    /// A stream socket connected to `path`, blocking and close-on-exec: read and write
    /// it with `FileDescriptor`'s loops.
    public static func connectStream(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = try makeSocket(_SOCK_STREAM, path)
        var result: Int32 = -1
        repeat {
            result = try withAddress(path) { system_connect(fd.rawValue, $0, $1) }
        } while result != 0 && system_errno == _EINTR
        if result != 0 {
            let error = SystemError("connect", path)
            fd.close()
            throw error
        }
        return fd
    }

    private static func makeSocket(_ type: Int32, _ path: String) throws(SystemError) -> FileDescriptor {
        let fd = system_socket(Int32(_AF_UNIX), type, 0)
        if fd < 0 { throw SystemError("socket", path) }
        _ = system_fcntl(fd, _F_SETFD, _FD_CLOEXEC)
        return FileDescriptor(rawValue: fd)
    }

    /// Calls `body` with `path` as a socket address.
    private static func withAddress(
        _ path: String, _ body: (UnsafePointer<_sockaddr>, _socklen_t) -> Int32
    ) throws(SystemError) -> Int32 {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumPathBytes, !bytes.contains(0) else {
            throw SystemError("socket address", path, code: _ENAMETOOLONG)
        }
        var address = _sockaddr_un()
        #if canImport(Darwin)
            address.sun_len = UInt8(MemoryLayout<_sockaddr_un>.size)
        #endif
        address.sun_family = _sa_family_t(_AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: _sockaddr.self, capacity: 1) {
                body($0, _socklen_t(MemoryLayout<_sockaddr_un>.size))
            }
        }
    }
}

extension FileDescriptor {
    /// Sends `bytes` as one datagram on a connected, non-blocking datagram socket.
    /// - Returns: false when it was not sent (the receiver's queue is full or it is gone):
    ///   the caller counts it and goes on, never waits.
    public func sendDatagram(_ bytes: [UInt8]) -> Bool {
        while true {
            let n = bytes.withUnsafeBytes { system_write(rawValue, $0.baseAddress, $0.count) }
            if n == bytes.count { return true }
            if n < 0 && system_errno == _EINTR { continue }
            return false
        }
    }
}
