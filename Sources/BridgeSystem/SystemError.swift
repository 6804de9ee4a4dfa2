/// A failed system call: which operation, on what, and `errno`.
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The operation that failed, such as `open` or `rename`.
    public var operation: String
    /// The path or descriptor it acted on; empty when there is none.
    public var subject: String
    /// The `errno` value.
    public var code: Int32

    public init(_ operation: String, _ subject: String = "", code: Int32 = errno) {
        self.operation = operation
        self.subject = subject
        self.code = code
    }

    /// `strerror` text for the code.
    public var reason: String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    /// True for "no such file or directory".
    public var isNotFound: Bool { code == ENOENT }
    /// True for a full disk or exhausted quota.
    public var isNoSpace: Bool { code == ENOSPC || code == EDQUOT }
    /// True for permission problems and read-only file systems.
    public var isPermission: Bool { code == EACCES || code == EPERM || code == EROFS }

    public var description: String {
        let what = subject.isEmpty ? operation : "\(operation) \(subject)"
        var text = "\(what): \(reason)"
        if isNoSpace { text += " (free some disk space and try again)" }
        if isPermission { text += " (check the folder's owner and permissions)" }
        return text
    }
}
