import BridgeSystem
import TestSupport
import Testing

@testable import SharedSuite

@Suite struct FolderChangesTests {
    /// Without notifications the watchers look on a timer: not before the interval is up, then
    /// once per interval, and the wait until the next look is what the clock says.
    @Test func withoutNotifications_looksOncePerInterval_onTheInjectedClock() {
        let clock = ManualClock()
        let changes = FolderChanges(
            folder: "/nonexistent", notifications: false, clock: clock.clock, intervalMilliseconds: 250)
        #expect(changes.descriptor == nil)
        #expect(changes.millisecondsToNextLook == 250)
        #expect(!changes.take { _ in true })
        clock.advance(milliseconds: 249)
        #expect(changes.millisecondsToNextLook == 1)
        #expect(!changes.take { _ in true })
        clock.advance(milliseconds: 1)
        #expect(changes.take { _ in false }, "a look on the timer cannot tell names apart: it always looks")
        #expect(!changes.take { _ in true })
        #expect(changes.millisecondsToNextLook == 250)
    }

    /// With notifications only the names that matter wake the caller, and there is no timer.
    @Test func withNotifications_onlyRelevantNamesCount() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let clock = ManualClock()
        let changes = FolderChanges(
            folder: tmp.path, notifications: true, clock: clock.clock, intervalMilliseconds: 250)
        let descriptor = try #require(changes.descriptor)
        #expect(changes.millisecondsToNextLook == nil)
        try FileSystem.writeAtomically(tmp.path + "/.lock", [1])
        _ = try FileDescriptor.waitForInput([descriptor], timeoutMilliseconds: 1000)
        #expect(!changes.take { $0 == "suite.json" })
        try FileSystem.writeAtomically(tmp.path + "/suite.json", [1])
        _ = try FileDescriptor.waitForInput([descriptor], timeoutMilliseconds: 1000)
        #expect(changes.take { $0 == "suite.json" })
    }
}
