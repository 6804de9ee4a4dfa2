#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#else
    #error("Unsupported platform")
#endif

/// The terminal a person types on.
public enum Terminal {
    /// Reads one line from the terminal `input` without showing what is
    /// typed (for a secret), and returns it without its line break. Line
    /// editing works as usual; the newline is still shown, so the cursor
    /// moves on. SIGINT, SIGTERM and SIGHUP stop the read, and the terminal's
    /// settings are put back whichever way it ends.
    /// - Parameters:
    ///   - input: the terminal (standard input, when it is one).
    ///   - limit: bytes kept at most; a longer line is read to its end and
    ///     returned cut at `limit + 1` bytes, so the caller can tell.
    /// - Throws: `SystemError` with `Errno.interrupted` when a signal stopped it.
    public static func readLineHidden(_ input: FileDescriptor, limit: Int) throws(SystemError) -> [UInt8] {
        var saved = termios()
        guard system_tcgetattr(input.rawValue, &saved) == 0 else { throw SystemError("tcgetattr", input.description) }
        var hidden = saved
        hidden.c_lflag &= ~tcflag_t(ECHO)
        hidden.c_lflag |= tcflag_t(ECHONL)
        let dispositions = Signals.requestTermination(on: [.interrupt, .terminate, .hangUp])
        defer { dispositions.restore() }
        guard system_tcsetattr(input.rawValue, TCSAFLUSH, &hidden) == 0 else {
            throw SystemError("tcsetattr", input.description)
        }
        defer { _ = system_tcsetattr(input.rawValue, TCSAFLUSH, &saved) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let result = try withUnsafeMutableBytes(of: &byte) { buffer throws(SystemError) in
                try input.readOnce(into: buffer)
            }
            switch result {
            case .interrupted:
                if Signals.terminationRequested { throw SystemError("read", input.description, code: EINTR) }
            case .bytes(0):
                return line  // end of input: Ctrl-D
            case .bytes:
                if byte == UInt8(ascii: "\n") { return line }
                if line.count <= limit { line.append(byte) }
            }
        }
    }
}
