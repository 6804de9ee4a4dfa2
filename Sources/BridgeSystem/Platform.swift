// BridgeSystem is the one module that imports the C library, and only its
// Internals/ files import it (`internal`ly): no libc name reaches a module above it.
// Everything above sees typed wrappers: `FileDescriptor`, `FileStatus`,
// `FileLock`, `MonotonicClock`, `Signals`, `DirectoryWatch`, `Subprocess`.

/// Platform differences, each behind one name.
public enum Platform {
    /// True on macOS, for the few paths that differ (group containers,
    /// browser folders in `.app` bundles and under `~/Library`, the install receipt).
    public static var isMacOS: Bool {
        #if os(macOS)
            return true
        #else
            return false
        #endif
    }

    /// True when `path` names a regular file (links followed) that this process may execute.
    public static func isExecutableFile(_ path: String) -> Bool {
        var info = _stat()
        guard system_stat(path, &info) == 0, (info.st_mode & _S_IFMT) == _S_IFREG else { return false }
        return system_access(path, _X_OK) == 0
    }

    /// True when something exists at `path` (links followed).
    public static func exists(_ path: String) -> Bool {
        var info = _stat()
        return system_stat(path, &info) == 0
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
            let page = Int(system_sysconf(Int32(__SC_PAGESIZE)))
            let first = (Int(bitPattern: start) + page - 1) / page * page
            let end = (Int(bitPattern: start) + count) / page * page
            guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
            _ = system_madvise(aligned, end - first, 23)  // MADV_POPULATE_WRITE
        #endif
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

    /// The folder for an application's data (the install receipt):
    /// `~/Library/Application Support/<macName>` on macOS, else
    /// `$XDG_DATA_HOME/<linuxName>` (default `~/.local/share/<linuxName>`).
    public static func applicationDataFolder(home: String, xdgDataHome: String?, linuxName: String, macName: String)
        -> String
    {
        #if os(macOS)
            return home + "/Library/Application Support/" + macName
        #else
            let data = xdgDataHome.flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
            return data + "/" + linuxName
        #endif
    }

    /// The absolute path of the running executable, links resolved.
    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        #if canImport(Darwin)
            var size = UInt32(buffer.count - 1)
            guard system__NSGetExecutablePath(&buffer, &size) == 0 else { return nil }
            guard let resolved = system_realpath(buffer, nil) else { return String(cString: buffer) }
            defer { system_free(resolved) }
            return String(cString: resolved)
        #else
            let n = system_readlink("/proc/self/exe", &buffer, 4096)
            guard n > 0 else { return nil }
            return String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #endif
    }

    /// The user this process acts as (`geteuid`).
    public static var effectiveUserID: UInt32 { UInt32(system_geteuid()) }

    /// This process's id.
    public static var processID: Int32 { Int32(system_getpid()) }

    /// Ends the process now with `status`, without unwinding: a one-shot host
    /// gains nothing from freeing what it built.
    public static func exit(_ status: Int32) -> Never {
        system_exit(status)
    }

    /// Sleeps for `milliseconds` (tests and lock retries).
    public static func sleep(milliseconds: Int) {
        var request = _timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        var remaining = _timespec()
        while system_nanosleep(&request, &remaining) != 0 && system_errno == _EINTR { request = remaining }
    }
}
