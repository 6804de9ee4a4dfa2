/// A failed system call: which operation, on what, and `errno`.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The operation that failed, such as `open` or `rename`.
    public var operation: String
    /// The path or descriptor it acted on; empty when there is none.
    public var subject: String
    /// The `errno` value (see `Errno` for names).
    public var code: Int32

    /// - Parameters:
    ///   - operation: what failed, such as `open`.
    ///   - subject: the path or descriptor it acted on.
    ///   - code: the `errno` value; by default the calling thread's `errno` now.
    public init(_ operation: String, _ subject: String = "", code: Int32 = Errno.current) {
        self.operation = operation
        self.subject = subject
        self.code = code
    }

    /// `strerror` text for the code.
    public var reason: String {
        guard let text = system_strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    /// True for "no such file or directory".
    public var isNotFound: Bool { code == _ENOENT }
    /// True for a full disk, an exhausted quota or a file-size limit.
    public var isNoSpace: Bool { code == _ENOSPC || code == _EDQUOT || code == _EFBIG }
    /// True for permission problems and read-only file systems.
    public var isPermission: Bool { code == _EACCES || code == _EPERM || code == _EROFS }
    /// True for a reader that closed its end of a pipe.
    public var isBrokenPipe: Bool { code == _EPIPE }
    /// True for a write that gave up waiting (`FileDescriptor.writeAll(_:timeoutMilliseconds:clock:)`).
    public var isTimeout: Bool { code == _ETIMEDOUT }

    public var description: String {
        let what = subject.isEmpty ? operation : "\(operation) \(subject)"
        var text = "\(what): \(reason)"
        if isNoSpace { text += " (free some disk space and try again)" }
        if isPermission { text += " (check the folder's owner and permissions)" }
        if code == _ELOOP { text += " (a symbolic link: links in the group container are never followed)" }
        return text
    }
}
