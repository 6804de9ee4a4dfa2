/// A program running beside this one, in its own process group, until it exits
/// or is ended: `extension-bridge run` starts a browser this way (its debugging
/// pipe on descriptors 3 and 4) and a build whose output it reads as it comes.
/// `Subprocess.run` is the one-call form for programs that finish on their own.
///
/// Spawning changes this process's working directory for an instant (see
/// `Subprocess`): call it from single-threaded programs only.
public final class ChildProcess {
    /// The child's process id, which is also its process group's.
    public let processID: Int32
    /// Its exit status once reaped (128 + the signal when a signal ended it).
    public private(set) var exitStatus: Int32?

    private init(processID: Int32) { self.processID = processID }

    /// Starts `path` in a new process group.
    /// - Parameters:
    ///   - path: the program, an absolute path (no `PATH` search).
    ///   - arguments: its arguments, after the program's name.
    ///   - environment: its whole environment.
    ///   - workingDirectory: its working directory; nil keeps this process's.
    ///   - descriptors: what becomes its descriptors 0, 1, 2, 3, …, in order; nil for one
    ///     of them is `/dev/null`. Every other descriptor of this process that is
    ///     close-on-exec stays out of the child.
    /// - Throws: `SystemError` when `/dev/null` cannot be opened or the spawn fails.
    public static func spawn(
        _ path: String, arguments: [String], environment: [String: String], workingDirectory: String?,
        descriptors: [FileDescriptor?]
    ) throws(SystemError) -> ChildProcess {
        let null = try FileDescriptor.openForReadingAndWriting("/dev/null")
        defer { null.close() }
        let mapping = descriptors.map { $0 ?? null }
        let pid = try spawnProcess(
            path, arguments: arguments, environment: environment, workingDirectory: workingDirectory,
            descriptors: mapping, ownProcessGroup: true)
        return ChildProcess(processID: pid)
    }

    /// Reaps the child if it has exited, without waiting.
    /// - Returns: its exit status once it has exited, else nil.
    @discardableResult
    public func reap() -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        if system_waitpid(_pid_t(processID), &status, _WNOHANG) == _pid_t(processID) {
            exitStatus = ChildProcess.decode(status)
        }
        return exitStatus
    }

    /// Waits for the child to exit, at most `timeoutMilliseconds`, looking every 20 ms.
    /// - Returns: its exit status, or nil when it is still running.
    @discardableResult
    public func wait(timeoutMilliseconds: Int64) -> Int32? {
        let deadline = MonotonicClock.system.milliseconds + timeoutMilliseconds
        while reap() == nil {
            if MonotonicClock.system.milliseconds >= deadline { return nil }
            Platform.sleep(milliseconds: 20)
        }
        return exitStatus
    }

    /// Sends `signal` to the child's whole process group (its own children too).
    public func signalGroup(_ signal: ProcessSignal) {
        _ = system_kill(-_pid_t(processID), signal.rawValue)
    }

    /// Ends the child's process group: SIGTERM, then SIGKILL to what is left of the
    /// group after `graceMilliseconds`, and reaps the child.
    /// - Returns: the child's exit status.
    @discardableResult
    public func terminate(graceMilliseconds: Int64) -> Int32 {
        if reap() == nil {
            signalGroup(.terminate)
            wait(timeoutMilliseconds: graceMilliseconds)
        }
        // The leader may be gone while others of its group live on (a browser's helpers).
        signalGroup(.kill)
        if reap() == nil {
            var status: Int32 = 0
            while system_waitpid(_pid_t(processID), &status, 0) < 0 && system_errno == _EINTR {}
            exitStatus = ChildProcess.decode(status)
        }
        return exitStatus ?? 128 + _SIGKILL
    }

    /// A `waitpid` status as an exit status: the code, or 128 + the signal.
    static func decode(_ status: Int32) -> Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

extension FileDescriptor {
    /// Opens `path` for reading and writing, close-on-exec (`/dev/null` for a child).
    public static func openForReadingAndWriting(_ path: String) throws(SystemError) -> FileDescriptor {
        let fd = system_open(path, _O_RDWR | _O_CLOEXEC)
        if fd < 0 { throw SystemError("open", path) }
        return FileDescriptor(rawValue: fd)
    }
}

/// Spawns `path` with `descriptors` as its 0, 1, 2, …: the one spawn of BridgeSystem
/// (`Subprocess.run` and `ChildProcess.spawn`).
///
/// Each descriptor is first copied above every target number, close-on-exec, so
/// mapping one onto another's number cannot clobber it; `dup2` in the child clears
/// close-on-exec on the targets only. The program starts with SIGPIPE and SIGXFSZ at
/// their defaults, whatever this process ignores (in a group of its own, SIGTERM, SIGINT and
/// SIGHUP too, and nothing blocked).
func spawnProcess(
    _ path: String, arguments: [String], environment: [String: String]?, workingDirectory: String?,
    descriptors: [FileDescriptor], ownProcessGroup: Bool
) throws(SystemError) -> Int32 {
    var copies: [Int32] = []
    defer { for fd in copies { system_close(fd) } }
    for descriptor in descriptors {
        let copy = system_fcntl(descriptor.rawValue, _F_DUPFD_CLOEXEC, Int32(max(descriptors.count, 3) + 10))
        if copy < 0 { throw SystemError("dup", descriptor.description) }
        copies.append(copy)
    }
    var actions = _posix_spawn_file_actions_t()
    system_posix_spawn_file_actions_init(&actions)
    defer { system_posix_spawn_file_actions_destroy(&actions) }
    for (target, copy) in copies.enumerated() {
        system_posix_spawn_file_actions_adddup2(&actions, copy, Int32(target))
    }
    var attributes = _posix_spawnattr_t()
    system_posix_spawnattr_init(&attributes)
    defer { system_posix_spawnattr_destroy(&attributes) }
    var defaults = _sigset_t()
    system_sigemptyset(&defaults)
    system_sigaddset(&defaults, _SIGPIPE)
    system_sigaddset(&defaults, _SIGXFSZ)
    system_posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = Int32(_POSIX_SPAWN_SETSIGDEF)
    if ownProcessGroup {
        // A program in a group of its own is ended by signal (`ChildProcess.terminate`): it starts
        // with no signal blocked and the ending ones at their defaults, whatever the calling
        // thread blocked or this process ignored.
        for signal in [_SIGTERM, _SIGINT, _SIGHUP] { system_sigaddset(&defaults, signal) }
        system_posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = _sigset_t()
        system_sigemptyset(&none)
        system_posix_spawnattr_setsigmask(&attributes, &none)
        flags |= Int32(_POSIX_SPAWN_SETSIGMASK)
        flags |= Int32(_POSIX_SPAWN_SETPGROUP)
        system_posix_spawnattr_setpgroup(&attributes, 0)
    }
    system_posix_spawnattr_setflags(&attributes, Int16(flags))

    let argv = ([path] + arguments).map { system_strdup($0) } + [nil]
    let envp = environment.map { $0.map { system_strdup("\($0.key)=\($0.value)") } + [nil] }
    defer { for p in argv + (envp ?? []) { system_free(p) } }
    var pid = _pid_t()
    // The child inherits the working directory: change ours around the spawn
    // (posix_spawn_file_actions_addchdir_np is not exported to Swift on Linux).
    let previous = system_open(".", _O_RDONLY | _O_DIRECTORY | _O_CLOEXEC)
    defer { if previous >= 0 { system_close(previous) } }
    if let workingDirectory, system_chdir(workingDirectory) != 0 { throw SystemError("chdir", workingDirectory) }
    var rc: Int32 = 0
    // ETXTBSY: the program was just written and another thread's child, forked
    // meanwhile, still holds it open for writing until it execs. That usually
    // passes within milliseconds, but a loaded machine (or a sanitizer build) can
    // delay that child's exec far longer: try again for up to two seconds.
    let deadline = MonotonicClock.system.milliseconds + 2_000
    while true {
        if let envp {
            rc = system_posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        } else {
            rc = system_posix_spawn(&pid, path, &actions, &attributes, argv, system_environ)
        }
        if rc != _ETXTBSY || MonotonicClock.system.milliseconds >= deadline { break }
        Platform.sleep(milliseconds: 5)
    }
    if workingDirectory != nil && previous >= 0 { _ = system_fchdir(previous) }
    if rc != 0 { throw SystemError("spawn", path, code: rc) }
    return Int32(pid)
}
