import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import SharedSuite

/// The watcher over a real folder with real inotify, as the host runs it.
@Suite struct SuiteWatcherTests {
    /// Waits (at most 2 s) until the watcher says the suite may have changed.
    func sawChange(_ watcher: SuiteWatcher) throws -> Bool {
        for _ in 0..<20 {
            guard let fd = watcher.descriptor else { return watcher.takeChanges() }
            _ = try FileDescriptor.waitForInput([fd], timeoutMilliseconds: 100)
            if watcher.takeChanges() { return true }
        }
        return false
    }

    /// True when nothing is reported for 150 ms.
    func quiet(_ watcher: SuiteWatcher) throws -> Bool {
        guard let fd = watcher.descriptor else { return false }
        _ = try FileDescriptor.waitForInput([fd], timeoutMilliseconds: 150)
        return !watcher.takeChanges()
    }

    @Test func atomicReplace_write_andDelete_areSeen_otherFilesAreNot() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path + "/group")
        let suite = Suite(container: container)
        try suite.update { $0["a"] = .int(1) }
        let watcher = SuiteWatcher(container: container)
        watcher.start()
        #expect(watcher.usesNotifications)
        #expect(watcher.waitTimeoutMilliseconds() == nil, "an idle port waits for ever")
        try suite.update { $0["a"] = .int(2) }
        #expect(try sawChange(watcher))
        // Queue items and shared files are not the suite.
        _ = try PendingQueue(container: container).append(url: "https://a/", title: nil, content: "x", source: "s")
        try SharedFiles(container: container).write("note.txt", [1])
        #expect(try quiet(watcher))
        try FileSystem.remove(container.suitePath)
        #expect(try sawChange(watcher))
    }

    @Test func containerCreatedLater_isFollowedDown() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path + "/a/b/group")
        let watcher = SuiteWatcher(container: container)
        watcher.start()
        try Suite(container: container).update { $0["a"] = .int(1) }
        #expect(try sawChange(watcher))
        // Once down at the container, a write is seen as usual.
        while watcher.takeChanges() {}
        try Suite(container: container).update { $0["a"] = .int(2) }
        #expect(try sawChange(watcher))
    }

    @Test func containerReplacedByRename_isSeenAndRewatched() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path + "/group")
        try Suite(container: container).update { $0["a"] = .int(1) }
        let watcher = SuiteWatcher(container: container)
        watcher.start()
        let other = GroupContainer(path: tmp.path + "/staging")
        try Suite(container: other).update { $0["a"] = .int(2) }
        try FileManager.default.removeItem(atPath: container.path)
        #expect(rename(other.path, container.path) == 0)
        #expect(try sawChange(watcher))
        while watcher.takeChanges() {}
        try Suite(container: container).update { $0["a"] = .int(3) }
        #expect(try sawChange(watcher))
    }

    @Test func fallback_looksOnTheInjectedClock() {
        let clock = ManualClock()
        let watcher = SuiteWatcher(
            container: GroupContainer(path: "/nonexistent/g"), clock: clock.clock, fallbackIntervalMilliseconds: 250,
            notifications: false)
        #expect(!watcher.takeChanges(), "not started")
        watcher.start()
        #expect(watcher.descriptor == nil)
        #expect(watcher.waitTimeoutMilliseconds() == 250)
        #expect(!watcher.takeChanges())
        clock.advance(milliseconds: 100)
        #expect(watcher.waitTimeoutMilliseconds() == 150)
        clock.advance(milliseconds: 200)
        #expect(watcher.takeChanges())
        #expect(!watcher.takeChanges())
    }
}
