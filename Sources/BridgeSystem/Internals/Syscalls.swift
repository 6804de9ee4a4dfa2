#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#else
    #error("Unsupported platform")
#endif

// Every call into the C library that ExtensionBridge makes, each behind a thin wrapper named
// `system_<call>` with the call's own parameters, in the style of swift-system's
// Internals/Syscalls.swift: a newcomer sees every system call in this one file, and a test double
// or an fault injector has one seam. The rest of BridgeSystem calls these, never libc directly
// (`scripts/checks/syscalls.py` checks it). The C library's types and constants reach the other
// files through Internals/Exports.swift (`_O_RDONLY`, `_stat`, `_pollfd`): these two files are
// the only ones that import libc.
//
// Retries on EINTR, errno and error reporting stay with the callers: a wrapper only forwards.

// MARK: Descriptors

@discardableResult @inline(__always) internal func system_open(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
    open(path, flags)
}

@discardableResult @inline(__always) internal func system_open(
    _ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t
) -> Int32 {
    open(path, flags, mode)
}

@discardableResult @inline(__always) internal func system_close(_ fd: Int32) -> Int32 { close(fd) }

@discardableResult @inline(__always) internal func system_read(
    _ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int
) -> Int {
    read(fd, buffer, count)
}

@discardableResult @inline(__always) internal func system_write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int)
    -> Int
{
    write(fd, buffer, count)
}

@discardableResult @inline(__always) internal func system_pipe(_ fds: UnsafeMutablePointer<Int32>) -> Int32 {
    pipe(fds)
}

@discardableResult @inline(__always) internal func system_dup(_ fd: Int32) -> Int32 { dup(fd) }

@discardableResult @inline(__always) internal func system_dup2(_ fd: Int32, _ target: Int32) -> Int32 {
    dup2(fd, target)
}

@discardableResult @inline(__always) internal func system_fcntl(_ fd: Int32, _ command: Int32) -> Int32 {
    fcntl(fd, command)
}

@discardableResult @inline(__always) internal func system_fcntl(_ fd: Int32, _ command: Int32, _ value: Int32) -> Int32
{
    fcntl(fd, command, value)
}

@discardableResult @inline(__always) internal func system_fcntl(
    _ fd: Int32, _ command: Int32, _ pointer: UnsafeMutableRawPointer
)
    -> Int32
{
    fcntl(fd, command, pointer)
}

@discardableResult @inline(__always) internal func system_ioctl(
    _ fd: Int32, _ request: UInt, _ pointer: UnsafeMutableRawPointer
)
    -> Int32
{
    ioctl(fd, request, pointer)
}

@discardableResult @inline(__always) internal func system_fsync(_ fd: Int32) -> Int32 { fsync(fd) }

@discardableResult @inline(__always) internal func system_fstat(_ fd: Int32, _ info: UnsafeMutablePointer<stat>)
    -> Int32
{
    fstat(fd, info)
}

@discardableResult @inline(__always) internal func system_isatty(_ fd: Int32) -> Int32 { isatty(fd) }

@discardableResult @inline(__always) internal func system_poll(
    _ fds: UnsafeMutablePointer<pollfd>, _ count: nfds_t, _ timeout: Int32
)
    -> Int32
{
    poll(fds, count, timeout)
}

@discardableResult @inline(__always) internal func system_flock(_ fd: Int32, _ operation: Int32) -> Int32 {
    flock(fd, operation)
}

// MARK: Paths

@discardableResult @inline(__always) internal func system_stat(
    _ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<stat>
) -> Int32 {
    stat(path, info)
}

@discardableResult @inline(__always) internal func system_lstat(
    _ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<stat>
) -> Int32 {
    lstat(path, info)
}

@discardableResult @inline(__always) internal func system_access(_ path: UnsafePointer<CChar>, _ mode: Int32) -> Int32 {
    access(path, mode)
}

@discardableResult @inline(__always) internal func system_mkdir(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> Int32 {
    mkdir(path, mode)
}

@discardableResult @inline(__always) internal func system_rmdir(_ path: UnsafePointer<CChar>) -> Int32 { rmdir(path) }

@discardableResult @inline(__always) internal func system_unlink(_ path: UnsafePointer<CChar>) -> Int32 { unlink(path) }

@discardableResult @inline(__always) internal func system_link(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>)
    -> Int32
{
    link(from, to)
}

@discardableResult @inline(__always) internal func system_symlink(
    _ target: UnsafePointer<CChar>, _ path: UnsafePointer<CChar>
) -> Int32 {
    symlink(target, path)
}

@discardableResult @inline(__always) internal func system_rename(
    _ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>
) -> Int32 {
    rename(from, to)
}

@discardableResult @inline(__always) internal func system_readlink(
    _ path: UnsafePointer<CChar>, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int
) -> Int {
    readlink(path, buffer, size)
}

@discardableResult @inline(__always) internal func system_realpath(
    _ path: UnsafePointer<CChar>, _ resolved: UnsafeMutablePointer<CChar>?
) -> UnsafeMutablePointer<CChar>? {
    realpath(path, resolved)
}

#if canImport(Darwin)
    @inline(__always) internal func system__NSGetExecutablePath(
        _ buffer: UnsafeMutablePointer<CChar>, _ size: UnsafeMutablePointer<UInt32>
    ) -> Int32 {
        _NSGetExecutablePath(buffer, size)
    }
#endif

@discardableResult @inline(__always) internal func system_getcwd(_ buffer: UnsafeMutablePointer<CChar>?, _ size: Int)
    -> UnsafeMutablePointer<CChar>?
{
    getcwd(buffer, size)
}

@discardableResult @inline(__always) internal func system_chdir(_ path: UnsafePointer<CChar>) -> Int32 { chdir(path) }

@discardableResult @inline(__always) internal func system_fchdir(_ fd: Int32) -> Int32 { fchdir(fd) }

// MARK: Relative to a directory descriptor

@discardableResult @inline(__always) internal func system_openat(
    _ fd: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32
) -> Int32 {
    openat(fd, path, flags)
}

@discardableResult @inline(__always) internal func system_openat(
    _ fd: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t
) -> Int32 {
    openat(fd, path, flags, mode)
}

@discardableResult @inline(__always) internal func system_fstatat(
    _ fd: Int32, _ path: UnsafePointer<CChar>, _ info: UnsafeMutablePointer<stat>, _ flags: Int32
) -> Int32 {
    fstatat(fd, path, info, flags)
}

@discardableResult @inline(__always) internal func system_mkdirat(
    _ fd: Int32, _ path: UnsafePointer<CChar>, _ mode: mode_t
) -> Int32 {
    mkdirat(fd, path, mode)
}

@discardableResult @inline(__always) internal func system_unlinkat(
    _ fd: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32
) -> Int32 {
    unlinkat(fd, path, flags)
}

@discardableResult @inline(__always) internal func system_renameat(
    _ fromDirectory: Int32, _ from: UnsafePointer<CChar>, _ toDirectory: Int32, _ to: UnsafePointer<CChar>
) -> Int32 {
    renameat(fromDirectory, from, toDirectory, to)
}

@discardableResult @inline(__always) internal func system_linkat(
    _ fromDirectory: Int32, _ from: UnsafePointer<CChar>, _ toDirectory: Int32, _ to: UnsafePointer<CChar>,
    _ flags: Int32
) -> Int32 {
    linkat(fromDirectory, from, toDirectory, to, flags)
}

// MARK: Directory streams

#if canImport(Darwin)
    internal typealias DirectoryStream = UnsafeMutablePointer<DIR>
#else
    internal typealias DirectoryStream = OpaquePointer
#endif

@discardableResult @inline(__always) internal func system_opendir(_ path: UnsafePointer<CChar>) -> DirectoryStream? {
    opendir(path)
}

@discardableResult @inline(__always) internal func system_fdopendir(_ fd: Int32) -> DirectoryStream? { fdopendir(fd) }

@discardableResult @inline(__always) internal func system_readdir(_ stream: DirectoryStream) -> UnsafeMutablePointer<
    dirent
>? {
    readdir(stream)
}

@inline(__always) internal func system_rewinddir(_ stream: DirectoryStream) { rewinddir(stream) }

@discardableResult @inline(__always) internal func system_closedir(_ stream: DirectoryStream) -> Int32 {
    closedir(stream)
}

// MARK: Folder watches (Linux)

#if os(Linux)
    @discardableResult @inline(__always) internal func system_inotify_init1(_ flags: Int32) -> Int32 {
        inotify_init1(flags)
    }

    @discardableResult @inline(__always) internal func system_inotify_add_watch(
        _ fd: Int32, _ path: UnsafePointer<CChar>, _ mask: UInt32
    )
        -> Int32
    {
        inotify_add_watch(fd, path, mask)
    }

    @discardableResult @inline(__always) internal func system_inotify_rm_watch(_ fd: Int32, _ watch: Int32) -> Int32 {
        inotify_rm_watch(fd, watch)
    }
#endif

// MARK: Processes and signals

@discardableResult @inline(__always) internal func system_getpid() -> pid_t { getpid() }

@discardableResult @inline(__always) internal func system_geteuid() -> uid_t { geteuid() }

@discardableResult @inline(__always) internal func system_kill(_ pid: pid_t, _ signal: Int32) -> Int32 {
    kill(pid, signal)
}

@discardableResult @inline(__always) internal func system_waitpid(
    _ pid: pid_t, _ status: UnsafeMutablePointer<Int32>?, _ options: Int32
)
    -> pid_t
{
    waitpid(pid, status, options)
}

@inline(__always) internal func system_exit(_ status: Int32) -> Never {
    #if canImport(Glibc)
        Glibc.exit(status)
    #elseif canImport(Musl)
        Musl.exit(status)
    #else
        Darwin.exit(status)
    #endif
}

@discardableResult @inline(__always) internal func system_sigaction(
    _ signal: Int32, _ action: UnsafePointer<sigaction>?, _ previous: UnsafeMutablePointer<sigaction>?
) -> Int32 {
    sigaction(signal, action, previous)
}

@discardableResult @inline(__always) internal func system_sigprocmask(
    _ how: Int32, _ set: UnsafePointer<sigset_t>?, _ previous: UnsafeMutablePointer<sigset_t>?
) -> Int32 {
    sigprocmask(how, set, previous)
}

@discardableResult @inline(__always) internal func system_sigemptyset(_ set: UnsafeMutablePointer<sigset_t>) -> Int32 {
    sigemptyset(set)
}

@discardableResult @inline(__always) internal func system_sigaddset(
    _ set: UnsafeMutablePointer<sigset_t>, _ signal: Int32
) -> Int32 {
    sigaddset(set, signal)
}

@discardableResult @inline(__always) internal func system_posix_spawn(
    _ pid: UnsafeMutablePointer<pid_t>, _ path: UnsafePointer<CChar>,
    _ actions: UnsafePointer<posix_spawn_file_actions_t>, _ attributes: UnsafePointer<posix_spawnattr_t>,
    _ argv: UnsafePointer<UnsafeMutablePointer<CChar>?>, _ envp: UnsafePointer<UnsafeMutablePointer<CChar>?>?
) -> Int32 {
    posix_spawn(pid, path, actions, attributes, argv, envp)
}

@discardableResult @inline(__always) internal func system_posix_spawn_file_actions_init(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>
) -> Int32 {
    posix_spawn_file_actions_init(actions)
}

@discardableResult @inline(__always) internal func system_posix_spawn_file_actions_destroy(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>
) -> Int32 {
    posix_spawn_file_actions_destroy(actions)
}

@discardableResult @inline(__always) internal func system_posix_spawn_file_actions_adddup2(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ fd: Int32, _ target: Int32
) -> Int32 {
    posix_spawn_file_actions_adddup2(actions, fd, target)
}

@discardableResult @inline(__always) internal func system_posix_spawn_file_actions_addclose(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ fd: Int32
) -> Int32 {
    posix_spawn_file_actions_addclose(actions, fd)
}

@discardableResult @inline(__always) internal func system_posix_spawnattr_init(
    _ attributes: UnsafeMutablePointer<posix_spawnattr_t>
)
    -> Int32
{
    posix_spawnattr_init(attributes)
}

@discardableResult @inline(__always) internal func system_posix_spawnattr_destroy(
    _ attributes: UnsafeMutablePointer<posix_spawnattr_t>
)
    -> Int32
{
    posix_spawnattr_destroy(attributes)
}

@discardableResult @inline(__always) internal func system_posix_spawnattr_setsigdefault(
    _ attributes: UnsafeMutablePointer<posix_spawnattr_t>, _ set: UnsafePointer<sigset_t>
) -> Int32 {
    posix_spawnattr_setsigdefault(attributes, set)
}

@discardableResult @inline(__always) internal func system_posix_spawnattr_setsigmask(
    _ attributes: UnsafeMutablePointer<posix_spawnattr_t>, _ set: UnsafePointer<sigset_t>
) -> Int32 {
    posix_spawnattr_setsigmask(attributes, set)
}

@discardableResult @inline(__always) internal func system_posix_spawnattr_setpgroup(
    _ attributes: UnsafeMutablePointer<posix_spawnattr_t>, _ group: pid_t
) -> Int32 {
    posix_spawnattr_setpgroup(attributes, group)
}

@discardableResult @inline(__always) internal func system_posix_spawnattr_setflags(
    _ attributes: UnsafeMutablePointer<posix_spawnattr_t>, _ flags: Int16
) -> Int32 {
    posix_spawnattr_setflags(attributes, flags)
}

// MARK: Time, memory, terminal, environment, errors

@discardableResult @inline(__always) internal func system_clock_gettime(
    _ clock: clockid_t, _ time: UnsafeMutablePointer<timespec>
)
    -> Int32
{
    clock_gettime(clock, time)
}

@discardableResult @inline(__always) internal func system_nanosleep(
    _ request: UnsafePointer<timespec>, _ remaining: UnsafeMutablePointer<timespec>?
) -> Int32 {
    nanosleep(request, remaining)
}

@discardableResult @inline(__always) internal func system_sysconf(_ name: Int32) -> Int { sysconf(name) }

#if os(Linux)
    @discardableResult @inline(__always) internal func system_madvise(
        _ address: UnsafeMutableRawPointer, _ length: Int, _ advice: Int32
    )
        -> Int32
    {
        madvise(address, length, advice)
    }
#endif

@discardableResult @inline(__always) internal func system_tcgetattr(
    _ fd: Int32, _ attributes: UnsafeMutablePointer<termios>
) -> Int32 {
    tcgetattr(fd, attributes)
}

@discardableResult @inline(__always) internal func system_tcsetattr(
    _ fd: Int32, _ when: Int32, _ attributes: UnsafePointer<termios>
)
    -> Int32
{
    tcsetattr(fd, when, attributes)
}

@discardableResult @inline(__always) internal func system_getenv(_ name: UnsafePointer<CChar>) -> UnsafeMutablePointer<
    CChar
>? {
    getenv(name)
}

@discardableResult @inline(__always) internal func system_strerror(_ code: Int32) -> UnsafeMutablePointer<CChar>? {
    strerror(code)
}

@discardableResult @inline(__always) internal func system_strdup(_ text: UnsafePointer<CChar>) -> UnsafeMutablePointer<
    CChar
>? {
    strdup(text)
}

@inline(__always) internal func system_free(_ pointer: UnsafeMutableRawPointer?) { free(pointer) }

@inline(__always) internal func system_raise(_ signal: Int32) -> Int32 { raise(signal) }

@inline(__always) internal func system_getuid() -> uid_t { getuid() }

#if canImport(Darwin)
    @inline(__always) internal func system_getpwuid_r(
        _ uid: uid_t, _ entry: UnsafeMutablePointer<passwd>, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int,
        _ result: UnsafeMutablePointer<UnsafeMutablePointer<passwd>?>
    ) -> Int32 {
        getpwuid_r(uid, entry, buffer, size, result)
    }
#endif

/// The process environment, for `posix_spawn`.
internal var system_environ: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? { environ }

/// The calling thread's `errno`.
internal var system_errno: Int32 {
    @inline(__always) get { errno }
    @inline(__always) set { errno = newValue }
}

// MARK: Local sockets (`extension-bridge run`: the hosts' trace, a browser's debugging server)

@discardableResult @inline(__always) internal func system_socket(_ domain: Int32, _ type: Int32, _ proto: Int32)
    -> Int32
{
    socket(domain, type, proto)
}

@discardableResult @inline(__always) internal func system_bind(
    _ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t
) -> Int32 {
    bind(fd, address, length)
}

@discardableResult @inline(__always) internal func system_connect(
    _ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t
) -> Int32 {
    connect(fd, address, length)
}

@discardableResult @inline(__always) internal func system_setsockopt(
    _ fd: Int32, _ level: Int32, _ name: Int32, _ value: UnsafeRawPointer, _ length: socklen_t
) -> Int32 {
    setsockopt(fd, level, name, value, length)
}

// MARK: Private folders and local time (`extension-bridge run`)

@discardableResult @inline(__always) internal func system_mkdtemp(_ template: UnsafeMutablePointer<CChar>)
    -> UnsafeMutablePointer<CChar>?
{
    mkdtemp(template)
}

@discardableResult @inline(__always) internal func system_localtime_r(
    _ time: UnsafePointer<time_t>, _ result: UnsafeMutablePointer<tm>
) -> UnsafeMutablePointer<tm>? {
    localtime_r(time, result)
}
