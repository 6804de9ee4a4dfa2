#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#else
    #error("Unsupported platform")
#endif

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
    /// stdin and closes it, and collects its output for at most `timeoutMilliseconds`.
    public static func run(
        _ path: String, arguments: [String], environment: [String: String], workingDirectory: String?,
        input: [UInt8], timeoutMilliseconds: Int64
    ) throws(SystemError) -> Result {
        var inPipe: [Int32] = [0, 0]
        var outPipe: [Int32] = [0, 0]
        var errPipe: [Int32] = [0, 0]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0, pipe(&errPipe) == 0 else { throw SystemError("pipe") }
        defer { for fd in [inPipe[1], outPipe[0], errPipe[0]] { close(fd) } }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        for fd in [inPipe[0], inPipe[1], outPipe[0], outPipe[1], errPipe[0], errPipe[1]] {
            posix_spawn_file_actions_addclose(&actions, fd)
        }

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid = pid_t()
        // The child inherits the working directory: change ours around the
        // spawn (posix_spawn_file_actions_addchdir_np is not exported to Swift
        // on Linux). The CLI is single-threaded, so nothing else sees it.
        let previous = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { if previous >= 0 { close(previous) } }
        if let workingDirectory, chdir(workingDirectory) != 0 { throw SystemError("chdir", workingDirectory) }
        let rc = posix_spawn(&pid, path, &actions, nil, argv, envp)
        if workingDirectory != nil && previous >= 0 { _ = fchdir(previous) }
        close(inPipe[0])
        close(outPipe[1])
        close(errPipe[1])
        if rc != 0 { throw SystemError("spawn", path, code: rc) }

        _ = try? FileDescriptor(rawValue: inPipe[1]).writeAll(input)
        close(inPipe[1])
        inPipe[1] = -1

        var out: [UInt8] = []
        var err: [UInt8] = []
        var open = [outPipe[0], errPipe[0]]
        let clock = MonotonicClock.system
        let deadline = clock.milliseconds + timeoutMilliseconds
        var timedOut = false
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !open.isEmpty {
            let left = deadline - clock.milliseconds
            if left <= 0 {
                timedOut = true
                kill(pid, SIGKILL)
                break
            }
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(left, 1000)))
            if ready < 0 && errno != EINTR { break }
            for entry in fds where entry.revents != 0 {
                let n = read(entry.fd, &chunk, chunk.count)
                if n > 0 {
                    if entry.fd == outPipe[0] { out += chunk[0..<n] } else { err += chunk[0..<n] }
                } else if n == 0 || errno != EINTR {
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return Result(status: exitStatus, stdout: out, stderr: err, timedOut: timedOut)
    }
}
