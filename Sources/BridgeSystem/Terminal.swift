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
        var saved = _termios()
        guard system_tcgetattr(input.rawValue, &saved) == 0 else { throw SystemError("tcgetattr", input.description) }
        var hidden = saved
        hidden.c_lflag &= ~_tcflag_t(_ECHO)
        hidden.c_lflag |= _tcflag_t(_ECHONL)
        let dispositions = Signals.requestTermination(on: [.interrupt, .terminate, .hangUp])
        defer { dispositions.restore() }
        guard system_tcsetattr(input.rawValue, _TCSAFLUSH, &hidden) == 0 else {
            throw SystemError("tcsetattr", input.description)
        }
        defer { _ = system_tcsetattr(input.rawValue, _TCSAFLUSH, &saved) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let result = try withUnsafeMutableBytes(of: &byte) { buffer throws(SystemError) in
                try input.readOnce(into: buffer)
            }
            switch result {
            case .interrupted:
                if Signals.terminationRequested { throw SystemError("read", input.description, code: _EINTR) }
            case .bytes(0):
                return line  // end of input: Ctrl-D
            case .bytes:
                if byte == UInt8(ascii: "\n") { return line }
                if line.count <= limit { line.append(byte) }
            }
        }
    }
}
