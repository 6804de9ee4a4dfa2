nonisolated(unsafe) private var terminationFlag: _sig_atomic_t = 0

/// Signal dispositions for a whole process.
public enum Signals {
    /// Ignores `signal`: SIGPIPE makes a write to a closed pipe an `EPIPE`
    /// error; SIGXFSZ makes a write past `ulimit -f` an `EFBIG` error.
    public static func ignore(_ signal: ProcessSignal) { setDisposition(signal.rawValue, _SIG_IGN) }

    /// What signals did before `requestTermination(on:)` changed them.
    public struct Dispositions {
        fileprivate var saved: [(Int32, _sigaction)]

        /// Puts them back (an inherited "ignore" stays ignored).
        public func restore() {
            for (signal, saved) in saved {
                var action = saved
                system_sigaction(signal, &action, nil)
            }
        }
    }

    /// Makes each of `signals` set the termination flag instead of ending
    /// the process, without `SA_RESTART`: a blocking read returns `EINTR` and
    /// the loop around it looks at `terminationRequested`. Returns what they
    /// did before, for code that asks only for a while (a prompt).
    @discardableResult
    public static func requestTermination(on signals: [ProcessSignal]) -> Dispositions {
        _ = terminationFlag  // initialized now, never first inside a handler
        var saved: [(Int32, _sigaction)] = []
        for signal in signals {
            var previous = _sigaction()
            system_sigaction(signal.rawValue, nil, &previous)
            saved.append((signal.rawValue, previous))
            // The handler keeps errno: it may interrupt code that is about to read it.
            setDisposition(signal.rawValue) { _ in
                let saved = system_errno
                terminationFlag = 1
                system_errno = saved
            }
            // A parent may have started us with the signal blocked (the mask is
            // inherited across exec); a handler for a blocked signal never runs.
            var set = _sigset_t()
            system_sigemptyset(&set)
            system_sigaddset(&set, signal.rawValue)
            system_sigprocmask(_SIG_UNBLOCK, &set, nil)
        }
        return Dispositions(saved: saved)
    }

    /// True once a signal given to `requestTermination(on:)` arrived.
    public static var terminationRequested: Bool { terminationFlag != 0 }

    /// Raises `signal` in the calling thread: its handler has run when this returns.
    public static func raise(_ signal: ProcessSignal) { _ = system_raise(signal.rawValue) }

    /// Sends `signal` to the process `pid`.
    @discardableResult
    public static func send(_ signal: ProcessSignal, to pid: Int32) -> Bool {
        system_kill(_pid_t(pid), signal.rawValue) == 0
    }

    private static func setDisposition(_ signal: Int32, _ handler: (@convention(c) (Int32) -> Void)?) {
        var action = _sigaction()
        #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = handler
        #else
            action.__sigaction_handler.sa_handler = handler
        #endif
        system_sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        system_sigaction(signal, &action, nil)
    }
}
