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
        // Close-on-exec pipes: the child gets only the ends `spawnProcess` puts on its 0, 1 and 2.
        var pipes: [(read: FileDescriptor, write: FileDescriptor)] = []
        do {
            for _ in 0..<3 { pipes.append(try FileDescriptor.pipe()) }
        } catch {
            for pipe in pipes { for fd in [pipe.read, pipe.write] { fd.close() } }
            throw error
        }
        var inPipe = [pipes[0].read.rawValue, pipes[0].write.rawValue]
        let outPipe = [pipes[1].read.rawValue, pipes[1].write.rawValue]
        let errPipe = [pipes[2].read.rawValue, pipes[2].write.rawValue]
        defer { for fd in [inPipe[1], outPipe[0], errPipe[0]] where fd >= 0 { system_close(fd) } }
        let spawned: Int32
        do {
            spawned = try spawnProcess(
                path, arguments: arguments, environment: environment, workingDirectory: workingDirectory,
                descriptors: [pipes[0].read, pipes[1].write, pipes[2].write], ownProcessGroup: ownProcessGroup)
        } catch {
            for fd in [inPipe[0], outPipe[1], errPipe[1]] { system_close(fd) }
            throw error
        }
        let pid = _pid_t(spawned)
        system_close(inPipe[0])
        system_close(outPipe[1])
        system_close(errPipe[1])

        FileDescriptor(rawValue: inPipe[1]).setNonBlocking(true)
        var written = 0
        if input.isEmpty {
            system_close(inPipe[1])
            inPipe[1] = -1
        }
        var out: [UInt8] = []
        var err: [UInt8] = []
        var open = [outPipe[0], errPipe[0]]
        let clock = MonotonicClock.system
        let deadline = clock.milliseconds + timeoutMilliseconds
        var timedOut = false
        var terminated = false
        var reaped: Int32?
        var chunk = [UInt8](repeating: 0, count: 65_536)
        func signalChild(_ signal: Int32) { system_kill(ownProcessGroup ? -pid : pid, signal) }
        while true {
            if reaped == nil {
                var status: Int32 = 0
                if system_waitpid(pid, &status, _WNOHANG) == pid { reaped = status }
            }
            if reaped != nil && open.isEmpty { break }
            let left = deadline - clock.milliseconds
            if left <= 0 && reaped == nil {
                timedOut = true
                signalChild(_SIGKILL)
                break
            }
            if ownProcessGroup && !terminated && reaped == nil && Signals.terminationRequested {
                terminated = true
                signalChild(_SIGTERM)
            }
            var fds = open.map { _pollfd(fd: $0, events: Int16(_POLLIN), revents: 0) }
            if inPipe[1] >= 0 { fds.append(_pollfd(fd: inPipe[1], events: Int16(_POLLOUT), revents: 0)) }
            // Once the program is gone, take what its pipes hold now and stop:
            // a child it left behind may keep them open for ever.
            let wait: Int32 = reaped != nil ? 0 : fds.isEmpty ? 1 : Int32(min(max(left, 1), 100))
            let ready = system_poll(&fds, _nfds_t(fds.count), wait)
            if ready < 0 && system_errno != _EINTR { break }
            if ready == 0 && reaped != nil { break }
            for entry in fds where entry.revents != 0 {
                if entry.fd == inPipe[1] {
                    let n = input.withUnsafeBytes { raw in
                        system_write(entry.fd, raw.baseAddress.map { $0 + written }, min(raw.count - written, 65_536))
                    }
                    if n > 0 { written += n }
                    if written == input.count || (n < 0 && system_errno != _EAGAIN && system_errno != _EINTR) {
                        system_close(inPipe[1])
                        inPipe[1] = -1
                    }
                    continue
                }
                let n = system_read(entry.fd, &chunk, chunk.count)
                if n > 0 {
                    let fromStandardError = entry.fd == errPipe[0]
                    if let forward {
                        forward(fromStandardError, chunk[0..<n])
                    } else if fromStandardError {
                        err += chunk[0..<n]
                    } else {
                        out += chunk[0..<n]
                    }
                } else if n == 0 || system_errno != _EINTR {
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        var status: Int32 = reaped ?? 0
        if reaped == nil { while system_waitpid(pid, &status, 0) < 0 && system_errno == _EINTR {} }
        let exitStatus = ChildProcess.decode(status)
        return Result(status: exitStatus, stdout: out, stderr: err, timedOut: timedOut)
    }
}
