import Foundation
import Testing

@testable import BridgeSystem

/// Signal dispositions and the termination flag belong to the whole process: each test that
/// changes them runs in a child process of its own (an exit test), so no other test sees a flag
/// it did not raise (a `queue drain --exec` in the same process would stop at once).
@Suite struct SignalsTests {
    /// SIGHUP (a closed terminal, a session logging out) asks for a clean
    /// stop like SIGTERM, instead of killing the process mid-write.
    @Test func hangUp_setsTheTerminationFlag() async {
        await #expect(processExitsWith: .success) {
            Signals.requestTermination(on: [.hangUp])
            // Raised in this thread, so its handler has run when raise returns.
            Signals.raise(.hangUp)
            Platform.exit(Signals.terminationRequested ? 0 : 1)
        }
    }

    /// A prompt asks for the flag only while it reads, then puts back what
    /// was there: a signal the process was started ignoring stays ignored
    /// (put back as "default", this raise would end the child by SIGHUP).
    @Test func dispositions_restore_keepsAnInheritedIgnore() async {
        await #expect(processExitsWith: .success) {
            Signals.ignore(.hangUp)
            Signals.requestTermination(on: [.hangUp]).restore()
            Signals.raise(.hangUp)
            Platform.exit(Signals.terminationRequested ? 1 : 0)
        }
    }

    /// A parent may start us with a signal blocked (the mask survives exec): asking for the
    /// flag unblocks it, or the handler would never run.
    @Test func requestTermination_unblocksABlockedSignal() async {
        await #expect(processExitsWith: .success) {
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, SIGHUP)
            pthread_sigmask(SIG_BLOCK, &set, nil)
            Signals.requestTermination(on: [.hangUp])
            var now = sigset_t()
            pthread_sigmask(SIG_SETMASK, nil, &now)
            Platform.exit(sigismember(&now, SIGHUP) == 0 ? 0 : 1)
        }
    }

    /// Sent to another process (never this one: the termination flag is process-wide, and a
    /// test that set it would stop another test's drain), and refused for one that is not there.
    @Test func send_reachesALiveProcess_andSaysWhenThereIsNone() throws {
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        #expect(Signals.send(.kill, to: sleeper.processIdentifier))
        sleeper.waitUntilExit()
        #expect(sleeper.terminationReason == .uncaughtSignal && sleeper.terminationStatus == SIGKILL)
        #expect(!Signals.send(.kill, to: Int32.max))
    }
}
