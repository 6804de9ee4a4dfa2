// The only file with platform conditionals. Everything above this module
// imports `BridgeSystem` and sees one POSIX surface.

#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Musl)
    @_exported import Musl
#elseif canImport(Darwin)
    @_exported import Darwin
#else
    #error("Unsupported platform")
#endif

/// Platform differences, each behind one name.
public enum Platform {
    /// True on macOS: browsers live in `.app` bundles and keep their folders under `~/Library`.
    public static let isDarwin: Bool = {
        #if canImport(Darwin)
            return true
        #else
            return false
        #endif
    }()

    /// True when `path` names a regular file (links followed) that this process may execute.
    public static func isExecutableFile(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }

    /// True when something exists at `path` (links followed).
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Fills `count` bytes with cryptographically secure random bytes.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        // The system generator is cryptographically secure (getrandom on
        // Linux, arc4random on Darwin).
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 8)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        return Array(bytes.prefix(count))
    }

    /// Asks the kernel to back `count` bytes at `start` with memory now, in one
    /// call, instead of one page fault per page as they are first written
    /// (Linux 5.14+ `MADV_POPULATE_WRITE`; elsewhere, or when refused, nothing
    /// happens and pages fault in as usual). Worth it for buffers of hundreds
    /// of KiB: a fault costs microseconds in a virtual machine.
    public static func prefault(_ start: UnsafeMutableRawPointer, count: Int) {
        #if os(Linux)
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let first = (Int(bitPattern: start) + page - 1) / page * page
            let end = (Int(bitPattern: start) + count) / page * page
            guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
            _ = madvise(aligned, end - first, 23)  // MADV_POPULATE_WRITE
        #endif
    }

    /// Modification time of a `stat` result in nanoseconds since the epoch.
    public static func modificationNanoseconds(_ info: stat) -> Int64 {
        #if canImport(Darwin)
            return Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #else
            return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #endif
    }

    /// Status-change time of a `stat` result in nanoseconds since the epoch.
    public static func changeNanoseconds(_ info: stat) -> Int64 {
        #if canImport(Darwin)
            return Int64(info.st_ctimespec.tv_sec) * 1_000_000_000 + Int64(info.st_ctimespec.tv_nsec)
        #else
            return Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        #endif
    }

    /// Installs `handler` for `signal` without `SA_RESTART`, so blocking
    /// reads return `EINTR` and the caller can look at its flag.
    public static func installSignalHandler(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        setDisposition(signal, handler)
        // A parent may have started us with the signal blocked (the mask is
        // inherited across exec); a handler for a blocked signal never runs.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// Ignores `signal` (SIGPIPE: a closed pipe becomes an `EPIPE` error).
    public static func ignoreSignal(_ signal: Int32) {
        setDisposition(signal, SIG_IGN)
    }

    private static func setDisposition(_ signal: Int32, _ handler: (@convention(c) (Int32) -> Void)?) {
        var action = sigaction()
        #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = handler
        #else
            action.__sigaction_handler.sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(signal, &action, nil)
    }

    /// The folder that holds group containers for `home`, before the group id.
    public static func groupContainersRoot(home: String, xdgDataHome: String?) -> String {
        #if os(macOS)
            return home + "/Library/Group Containers"
        #else
            if let xdg = xdgDataHome, xdg.hasPrefix("/") { return xdg }
            return home + "/.local/share"
        #endif
    }

    /// The absolute path of the running executable, links resolved.
    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        #if canImport(Darwin)
            var size = UInt32(buffer.count - 1)
            guard _NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
            guard let resolved = realpath(buffer, nil) else { return String(cString: buffer) }
            defer { free(resolved) }
            return String(cString: resolved)
        #else
            let n = readlink("/proc/self/exe", &buffer, 4096)
            guard n > 0 else { return nil }
            return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
    }

    /// `O_DIRECTORY`, spelled the same on both, kept here for symmetry.
    public static let openDirectoryFlags: Int32 = O_RDONLY | O_DIRECTORY | O_CLOEXEC

    /// Calls `write` on Linux/Darwin (`Glibc.write` vs `Darwin.write`).
    @inline(__always)
    public static func rawWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        write(fd, buffer, count)
    }

    /// Calls `read`.
    @inline(__always)
    public static func rawRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        read(fd, buffer, count)
    }
}
