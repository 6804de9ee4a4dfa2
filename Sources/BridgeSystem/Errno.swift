#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#else
    #error("Unsupported platform")
#endif

/// The `errno` values code above this module tests for, by name.
public enum Errno {
    public static let notFound: Int32 = ENOENT
    public static let interrupted: Int32 = EINTR
    public static let brokenPipe: Int32 = EPIPE
    public static let timedOut: Int32 = ETIMEDOUT
    public static let noSpace: Int32 = ENOSPC
    public static let quotaExceeded: Int32 = EDQUOT
    public static let exists: Int32 = EEXIST
    public static let tooManyLinks: Int32 = ELOOP
    public static let notDirectory: Int32 = ENOTDIR
    public static let isDirectory: Int32 = EISDIR
    public static let permissionDenied: Int32 = EACCES
    public static let notPermitted: Int32 = EPERM
    public static let readOnlyFileSystem: Int32 = EROFS
    public static let ioError: Int32 = EIO
    public static let wouldBlock: Int32 = EWOULDBLOCK
    public static let invalidArgument: Int32 = EINVAL
    public static let fileTooLarge: Int32 = EFBIG

    /// The calling thread's `errno` now.
    public static var current: Int32 { errno }
}
