/// Runs a program with pipes, without Foundation. Changes the working
/// directory of the calling process for the instant of the spawn: call it from
/// single-threaded programs only: `doctor` launches the host
/// exactly as a browser would (its arguments, an environment, stdin a pipe,
/// the working directory of the binary).
public enum Subprocess {
    /// What a finished run left.
    public struct Result: Equatable, Sendable {
        /// Exit status; 128 + signal when killed by one.
        public var status: Int32
        public var stdout: [UInt8]
        public var stderr: [UInt8]
        /// True when the run was killed after the timeout.
        public var timedOut: Bool
    }

    /// Runs `path` with `arguments` and `environment`, writes `input` to its
    /// stdin (as it reads it, so a program that never reads cannot block the
    /// caller) and closes it, and collects its output for at most
    /// `timeoutMilliseconds`, then kills it.
    /// - Parameters:
    ///   - path: the program, an absolute path (no `PATH` search).
    ///   - arguments: its arguments, after the program's name.
    ///   - environment: the program's environment; nil passes this process's on.
    ///   - workingDirectory: its working directory; nil keeps this process's.
    ///   - input: written to its stdin, which is then closed.
    ///   - timeoutMilliseconds: how long it may run before it is killed.
    ///   - ownProcessGroup: runs it as its own process group, killed as a group on
    ///     the timeout and sent SIGTERM once this process is asked to terminate
    ///     (`Signals.requestTermination`), so a shell command's children go too.
    ///   - forward: when given, output is passed on as it arrives (`true` for
    ///     stderr) instead of being collected in the result.
    /// - Returns: its exit status (128 + the signal when killed), its output
    ///   (empty when forwarded), and whether the timeout killed it.
    /// - Throws: `SystemError` when the pipes or the spawn fail.
    /// - Note: ignores SIGPIPE for the whole process (see the first lines).
    public static func run(
        _ path: String, arguments: [String], environment: [String: String]?, workingDirectory: String?,
        input: [UInt8], timeoutMilliseconds: Int64, ownProcessGroup: Bool = false,
        forward: ((_ fromStandardError: Bool, _ bytes: ArraySlice<UInt8>) -> Void)? = nil
    ) throws(SystemError) -> Result {
        // A program may exit before reading all its input: that must be an EPIPE error here, never
        // a SIGPIPE that ends this process (a test runner, an app that kept the default). The CLI
        // and the host ignore SIGPIPE already; blocking it per write hung under ThreadSanitizer.
        Signals.ignore(.pipe)
        var inPipe: [Int32] = [0, 0]
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        guard system_pipe(&inPipe) == 0, system_pipe(&outPipe) == 0, system_pipe(&errPipe) == 0 else {
            throw SystemError("pipe")
        }
        // Close-on-exec: the child gets only the ends `spawnProcess` puts on its 0, 1 and 2.
        for fd in inPipe + outPipe + errPipe { _ = system_fcntl(fd, _F_SETFD, _FD_CLOEXEC) }
        defer { for fd in [inPipe[1], outPipe[0], errPipe[0]] where fd >= 0 { system_close(fd) } }
        let pid: _pid_t
        do {
            // The child's ends are the child's: closed here whether or not it started.
            defer { for fd in [inPipe[0], outPipe[1], errPipe[1]] { system_close(fd) } }
            pid = _pid_t(
                try spawnProcess(
                    path, arguments: arguments, environment: environment, workingDirectory: workingDirectory,
                    descriptors: [inPipe[0], outPipe[1], errPipe[1]].map(FileDescriptor.init(rawValue:)),
                    ownProcessGroup: ownProcessGroup))
        }
        var exchange = Exchange(
            input: input, stdin: inPipe[1], stdout: outPipe[0], stderr: errPipe[0], forward: forward)
        defer { inPipe[1] = exchange.stdin }  // closed by the exchange once the input is written
        let deadline = MonotonicClock.system.milliseconds + timeoutMilliseconds
        let (reaped, timedOut) = exchange.run(pid: pid, deadline: deadline, ownProcessGroup: ownProcessGroup)
        var status: Int32 = reaped ?? 0
        if reaped == nil { while system_waitpid(pid, &status, 0) < 0 && system_errno == _EINTR {} }
        let exitStatus = ChildProcess.decode(status)
        return Result(status: exitStatus, stdout: exchange.stdout, stderr: exchange.stderr, timedOut: timedOut)
    }

    /// The parent's side of a running program's pipes: its input written as it reads it, its
    /// output collected (or forwarded) as it arrives.
    private struct Exchange {
        let input: [UInt8]
        /// The write end of the program's stdin; -1 once all input is written (or it stopped reading).
        var stdin: Int32
        let standardError: Int32
        let forward: ((_ fromStandardError: Bool, _ bytes: ArraySlice<UInt8>) -> Void)?
        var written = 0
        /// The output pipes not yet at their end.
        var open: [Int32]
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)

        init(
            input: [UInt8], stdin: Int32, stdout: Int32, stderr: Int32,
            forward: ((_ fromStandardError: Bool, _ bytes: ArraySlice<UInt8>) -> Void)?
        ) {
            self.input = input
            self.stdin = stdin
            self.standardError = stderr
            self.open = [stdout, stderr]
            self.forward = forward
            FileDescriptor(rawValue: stdin).setNonBlocking(true)
            if input.isEmpty { closeInput() }
        }

        /// Moves bytes until the program `pid` has exited and its pipes are read, or until
        /// `deadline` (then it is killed). Returns its wait status when it was reaped, and
        /// whether the timeout killed it.
        mutating func run(pid: _pid_t, deadline: Int64, ownProcessGroup: Bool) -> (reaped: Int32?, timedOut: Bool) {
            let clock = MonotonicClock.system
            var terminated = false
            var reaped: Int32?
            func signalChild(_ signal: Int32) { system_kill(ownProcessGroup ? -pid : pid, signal) }
            while true {
                if reaped == nil {
                    var status: Int32 = 0
                    if system_waitpid(pid, &status, _WNOHANG) == pid { reaped = status }
                }
                if reaped != nil && open.isEmpty { break }
                let left = deadline - clock.milliseconds
                if left <= 0 && reaped == nil {
                    signalChild(_SIGKILL)
                    return (nil, true)
                }
                if ownProcessGroup && !terminated && reaped == nil && Signals.terminationRequested {
                    terminated = true
                    signalChild(_SIGTERM)
                }
                var fds = open.map { _pollfd(fd: $0, events: Int16(_POLLIN), revents: 0) }
                if stdin >= 0 { fds.append(_pollfd(fd: stdin, events: Int16(_POLLOUT), revents: 0)) }
                // Once the program is gone, take what its pipes hold now and stop:
                // a child it left behind may keep them open for ever.
                let wait: Int32 = reaped != nil ? 0 : fds.isEmpty ? 1 : Int32(min(max(left, 1), 100))
                let ready = system_poll(&fds, _nfds_t(fds.count), wait)
                if ready < 0 && system_errno != _EINTR { break }
                if ready == 0 && reaped != nil { break }
                for entry in fds where entry.revents != 0 {
                    if entry.fd == stdin { writeInput() } else { readOutput(entry.fd) }
                }
            }
            return (reaped, false)
        }

        /// Writes what the program's stdin takes now; closes it once all is written or it failed.
        mutating func writeInput() {
            let n = input.withUnsafeBytes { [written] raw in
                system_write(stdin, raw.baseAddress.map { $0 + written }, min(raw.count - written, 65_536))
            }
            if n > 0 { written += n }
            if written == input.count || (n < 0 && system_errno != _EAGAIN && system_errno != _EINTR) { closeInput() }
        }

        mutating func closeInput() {
            system_close(stdin)
            stdin = -1
        }

        /// Reads what `fd` holds now; at its end (or on an error) stops waiting on it.
        mutating func readOutput(_ fd: Int32) {
            let n = system_read(fd, &chunk, chunk.count)
            if n > 0 {
                let fromStandardError = fd == standardError
                if let forward {
                    forward(fromStandardError, chunk[0..<n])
                } else if fromStandardError {
                    stderr += chunk[0..<n]
                } else {
                    stdout += chunk[0..<n]
                }
            } else if n == 0 || system_errno != _EINTR {
                open.removeAll { $0 == fd }
            }
        }
    }
}
