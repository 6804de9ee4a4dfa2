#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#else
    #error("Unsupported platform")
#endif

// swift-format-ignore-file: AlwaysUseLowerCamelCase

// The C library's types and constants, re-exported under their own names with a leading `_`
// (swift-system's Internals/Exports.swift): with Syscalls.swift, the only files of BridgeSystem
// that import libc (`scripts/checks/syscalls.py` checks it). A type is an alias (`_stat` is
// `stat`); a constant keeps libc's own type on each platform (a `let` infers it; a release build
// folds it to the number). Add a name here when a file needs one more.

// MARK: Types

internal typealias _mode_t = mode_t
internal typealias _nfds_t = nfds_t
internal typealias _off_t = off_t
internal typealias _pid_t = pid_t
internal typealias _pollfd = pollfd
internal typealias _posix_spawn_file_actions_t = posix_spawn_file_actions_t
internal typealias _posix_spawnattr_t = posix_spawnattr_t
internal typealias _sig_atomic_t = sig_atomic_t
internal typealias _sigaction = sigaction
internal typealias _sigset_t = sigset_t
internal typealias _stat = stat
internal typealias _tcflag_t = tcflag_t
internal typealias _termios = termios
internal typealias _timespec = timespec
internal typealias _flock = flock
internal typealias _sockaddr = sockaddr
internal typealias _sockaddr_un = sockaddr_un
internal typealias _sa_family_t = sa_family_t
internal typealias _socklen_t = socklen_t
internal typealias _time_t = time_t
internal typealias _tm = tm
#if canImport(Darwin)
    internal typealias _passwd = passwd
#endif

// MARK: Constants

internal let _AT_SYMLINK_NOFOLLOW = AT_SYMLINK_NOFOLLOW
internal let _CLOCK_MONOTONIC = CLOCK_MONOTONIC
internal let _CLOCK_REALTIME = CLOCK_REALTIME
internal let _AF_UNIX = AF_UNIX
internal let _EACCES = EACCES
internal let _EAGAIN = EAGAIN
internal let _ECONNREFUSED = ECONNREFUSED
internal let _ECHO = ECHO
internal let _ECHONL = ECHONL
internal let _EDQUOT = EDQUOT
internal let _EEXIST = EEXIST
internal let _EFBIG = EFBIG
internal let _EINTR = EINTR
internal let _EINVAL = EINVAL
internal let _EIO = EIO
internal let _EISDIR = EISDIR
internal let _ELOOP = ELOOP
internal let _ENAMETOOLONG = ENAMETOOLONG
internal let _ENOENT = ENOENT
internal let _ENOSPC = ENOSPC
internal let _ENOSYS = ENOSYS
internal let _ENOTDIR = ENOTDIR
internal let _EPERM = EPERM
internal let _EPIPE = EPIPE
internal let _EROFS = EROFS
internal let _ETIMEDOUT = ETIMEDOUT
internal let _ETXTBSY = ETXTBSY
internal let _EWOULDBLOCK = EWOULDBLOCK
internal let _FD_CLOEXEC = FD_CLOEXEC
internal let _FIONREAD = FIONREAD
internal let _F_DUPFD_CLOEXEC = F_DUPFD_CLOEXEC
internal let _F_GETFL = F_GETFL
internal let _F_SETFD = F_SETFD
internal let _F_SETFL = F_SETFL
internal let _F_SETLK = F_SETLK
internal let _F_WRLCK = F_WRLCK
internal let _LOCK_EX = LOCK_EX
internal let _LOCK_NB = LOCK_NB
internal let _O_CLOEXEC = O_CLOEXEC
internal let _O_CREAT = O_CREAT
internal let _O_DIRECTORY = O_DIRECTORY
internal let _O_EXCL = O_EXCL
internal let _O_NOFOLLOW = O_NOFOLLOW
internal let _O_NONBLOCK = O_NONBLOCK
internal let _O_RDONLY = O_RDONLY
internal let _O_RDWR = O_RDWR
internal let _O_WRONLY = O_WRONLY
internal let _POLLERR = POLLERR
internal let _POLLHUP = POLLHUP
internal let _POLLIN = POLLIN
internal let _POLLNVAL = POLLNVAL
internal let _POLLOUT = POLLOUT
internal let _POSIX_SPAWN_SETPGROUP = POSIX_SPAWN_SETPGROUP
internal let _POSIX_SPAWN_SETSIGDEF = POSIX_SPAWN_SETSIGDEF
internal let _POSIX_SPAWN_SETSIGMASK = POSIX_SPAWN_SETSIGMASK
internal let _SEEK_SET = SEEK_SET
internal let _SIGHUP = SIGHUP
#if canImport(Glibc)
    // Glibc imports the socket types as an enum (`__socket_type`); elsewhere they are plain ints.
    internal let _SOCK_DGRAM = Int32(SOCK_DGRAM.rawValue)
    internal let _SOCK_STREAM = Int32(SOCK_STREAM.rawValue)
#else
    internal let _SOCK_DGRAM = SOCK_DGRAM
    internal let _SOCK_STREAM = SOCK_STREAM
#endif
internal let _SOL_SOCKET = SOL_SOCKET
internal let _SO_RCVBUF = SO_RCVBUF
internal let _SO_SNDBUF = SO_SNDBUF
internal let _SIGINT = SIGINT
internal let _SIGKILL = SIGKILL
internal let _SIGPIPE = SIGPIPE
internal let _SIGTERM = SIGTERM
internal let _SIGXFSZ = SIGXFSZ
internal let _SIG_UNBLOCK = SIG_UNBLOCK
internal let _TCSAFLUSH = TCSAFLUSH
internal let _WNOHANG = WNOHANG
internal let _X_OK = X_OK

// The C library's overlay defines these as computed properties (not C macros): a stored `let` of
// one would be initialised lazily, behind a once-check on every use, so they stay computed here.
@inline(__always) internal var _S_IFMT: mode_t { S_IFMT }
@inline(__always) internal var _S_IFBLK: mode_t { S_IFBLK }
@inline(__always) internal var _S_IFCHR: mode_t { S_IFCHR }
@inline(__always) internal var _S_IFDIR: mode_t { S_IFDIR }
@inline(__always) internal var _S_IFIFO: mode_t { S_IFIFO }
@inline(__always) internal var _S_IFLNK: mode_t { S_IFLNK }
@inline(__always) internal var _S_IFREG: mode_t { S_IFREG }
@inline(__always) internal var _S_IFSOCK: mode_t { S_IFSOCK }
@inline(__always) internal var _SIG_IGN: @convention(c) (Int32) -> Void { SIG_IGN }

#if os(Linux)
    internal let _IN_ATTRIB = IN_ATTRIB
    internal let _IN_CLOEXEC = IN_CLOEXEC
    internal let _IN_CLOSE_WRITE = IN_CLOSE_WRITE
    internal let _IN_CREATE = IN_CREATE
    internal let _IN_DELETE = IN_DELETE
    internal let _IN_DELETE_SELF = IN_DELETE_SELF
    internal let _IN_IGNORED = IN_IGNORED
    internal let _IN_MOVED_FROM = IN_MOVED_FROM
    internal let _IN_MOVED_TO = IN_MOVED_TO
    internal let _IN_MOVE_SELF = IN_MOVE_SELF
    internal let _IN_NONBLOCK = IN_NONBLOCK
    internal let _IN_ONLYDIR = IN_ONLYDIR
    internal let _IN_Q_OVERFLOW = IN_Q_OVERFLOW
    internal let _IN_UNMOUNT = IN_UNMOUNT
    internal let __SC_PAGESIZE = _SC_PAGESIZE
#endif
