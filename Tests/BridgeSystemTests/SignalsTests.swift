import Foundation
import TestSupport
import Testing

@testable import BridgeSystem

@Suite(.serialized) struct ClockAndSignalTests {
    @Test func systemClock_neverGoesBack() {
        var last = MonotonicClock.system.nanoseconds()
        for _ in 0..<1000 {
            let now = MonotonicClock.system.nanoseconds()
            #expect(now >= last)
            last = now
        }
    }

    /// SIGHUP (a closed terminal, a session logging out) asks for a clean
    /// stop like SIGTERM, instead of killing the process mid-write.
    @Test func hangUp_setsTheTerminationFlag() {
        Signals.requestTermination(on: [.hangUp])
        // Raised in this thread, so its handler has run (and no other thread reads the flag).
        Signals.raise(.hangUp)
        #expect(Signals.terminationRequested)
    }

    /// A prompt asks for the flag only while it reads, then puts back what
    /// was there: a signal the process was started ignoring stays ignored
    /// (put back as "default", this raise would end the test process).
    @Test func dispositions_restore_keepsAnInheritedIgnore() {
        Signals.ignore(.hangUp)
        Signals.requestTermination(on: [.hangUp]).restore()
        Signals.raise(.hangUp)
        Signals.requestTermination(on: [.hangUp])
    }

    @Test func randomBytes_haveTheLengthAsked() {
        #expect(Platform.randomBytes(0).isEmpty)
        #expect(Platform.randomBytes(13).count == 13)
        #expect(Platform.randomBytes(32) != Platform.randomBytes(32))
    }
}
