extension Platform {
    /// Makes a new folder only this user may enter (mode 0700, `mkdtemp`) named
    /// `prefix` and six random characters, inside `parent`.
    /// - Returns: its path.
    /// - Throws: `SystemError` when `parent` is missing or not writable.
    public static func makePrivateFolder(in parent: String, prefix: String) throws(SystemError) -> String {
        var template = Array((parent + "/" + prefix + "XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { system_mkdtemp($0) } ?? nil
        }
        guard made != nil else { throw SystemError("mkdtemp", parent + "/" + prefix + "XXXXXX") }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The executable process `processID` runs, as `/proc/PID/exe` names it (with
    /// ` (deleted)` once the file was replaced); nil when the process is gone, is
    /// another user's, or the system has no `/proc` (macOS).
    public static func executablePath(ofProcess processID: Int32) -> String? {
        #if os(Linux)
            return FileSystem.readLink("/proc/\(processID)/exe")
        #else
            return nil
        #endif
    }
}
