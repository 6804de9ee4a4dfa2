/// The `errno` values code above this module tests for, by name.
public enum Errno {
    public static let notFound: Int32 = _ENOENT
    public static let interrupted: Int32 = _EINTR
    public static let brokenPipe: Int32 = _EPIPE
    public static let timedOut: Int32 = _ETIMEDOUT
    public static let noSpace: Int32 = _ENOSPC
    public static let quotaExceeded: Int32 = _EDQUOT
    public static let exists: Int32 = _EEXIST
    public static let tooManyLinks: Int32 = _ELOOP
    public static let notDirectory: Int32 = _ENOTDIR
    public static let isDirectory: Int32 = _EISDIR
    public static let permissionDenied: Int32 = _EACCES
    public static let notPermitted: Int32 = _EPERM
    public static let readOnlyFileSystem: Int32 = _EROFS
    public static let ioError: Int32 = _EIO
    public static let wouldBlock: Int32 = _EWOULDBLOCK
    public static let invalidArgument: Int32 = _EINVAL
    public static let fileTooLarge: Int32 = _EFBIG

    /// The calling thread's `errno` now.
    public static var current: Int32 { system_errno }
}
