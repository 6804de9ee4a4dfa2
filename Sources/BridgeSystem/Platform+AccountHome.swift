// The account's home folder: the one part of `Platform` that reads a file (`/etc/passwd`) through
// `FileSystem`, kept apart so the rest of `Platform` stays below `FileSystem`, which uses it.

extension Platform {
    /// The home folder the group containers live under. On macOS the account's home from the
    /// password database (``accountHomeDirectory()``), never `HOME`: inside a sandboxed app or
    /// Safari app extension `HOME` is that process's own container, and the app and the
    /// extension would read different folders. Elsewhere `HOME`, as every other path here.
    /// Nil when there is none.
    public static func groupContainersHome(environment: Environment) -> String? {
        #if os(macOS)
            return accountHomeDirectory()
        #else
            return environment["HOME"]
        #endif
    }

    /// This process's user's home folder as the password database has it, whatever `HOME` says.
    /// On Darwin `getpwuid_r(getuid())`. Elsewhere the entry for `getuid()` in `/etc/passwd`,
    /// read as a file: a static executable must not load NSS, so accounts that only a
    /// directory service knows give nil there. Nil when there is no entry or it is not absolute.
    public static func accountHomeDirectory() -> String? {
        #if canImport(Darwin)
            var entry = _passwd()
            var result: UnsafeMutablePointer<_passwd>?
            var buffer = [CChar](repeating: 0, count: 16_384)
            guard system_getpwuid_r(system_getuid(), &entry, &buffer, buffer.count, &result) == 0, result != nil,
                let dir = entry.pw_dir
            else { return nil }
            let home = String(cString: dir)
            return home.hasPrefix("/") ? home : nil
        #else
            guard let bytes = try? FileSystem.readFile("/etc/passwd", limit: 16 << 20) else { return nil }
            return passwdHome(of: UInt32(system_getuid()), in: bytes)
        #endif
    }

    /// The home folder of `uid` in the bytes of a passwd file (`name:pw:uid:gid:gecos:dir:shell`).
    static func passwdHome(of uid: UInt32, in bytes: [UInt8]) -> String? {
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard fields.count >= 7, UInt32(String(decoding: fields[2], as: UTF8.self)) == uid else { continue }
            let home = String(decoding: fields[5], as: UTF8.self)
            return home.hasPrefix("/") ? home : nil
        }
        return nil
    }
}
