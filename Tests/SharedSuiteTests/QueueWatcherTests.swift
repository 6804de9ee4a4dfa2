import BridgeSystem
import Foundation
import SharedSuite
import TestSupport
import Testing

/// The queue watcher wakes for items renamed into `queue/`, also when the
/// container did not exist when it started (inotify), and on its timer in
/// the fallback. One real-disk test per way.
@Suite struct QueueWatcherTests {
    /// Appends an item as the host does (written in `.incoming`, renamed in).
    func append(_ container: GroupContainer) throws {
        _ = try PendingQueue(container: container).append(url: "https://a/", title: nil, content: "c", source: "s")
    }

    @Test func inotify_containerCreatedLater_wakesForTheItem_thenSleeps() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path + "/later/c")
        let watcher = QueueWatcher(container: container)
        try #require(watcher.usesNotifications)
        #expect(!watcher.wait(timeoutMilliseconds: 0))  // nothing yet
        try append(container)
        #expect(watcher.wait(timeoutMilliseconds: 2000))  // the folders appeared: look
        // Re-arming must not wake it again by itself (removing a watch sends IN_IGNORED).
        var spurious = 0
        while watcher.wait(timeoutMilliseconds: 50) {
            spurious += 1
            if spurious > 20 { break }
        }
        #expect(spurious <= 3)
        try append(container)  // now watching queue/: a new item wakes it
        #expect(watcher.wait(timeoutMilliseconds: 2000))
        #expect(!watcher.wait(timeoutMilliseconds: 50))
    }

    @Test func fallback_looksOnItsTimer() {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let watcher = QueueWatcher(
            container: GroupContainer(path: tmp.path + "/c"), fallbackIntervalMilliseconds: 5, notifications: false)
        #expect(!watcher.usesNotifications)
        #expect(watcher.wait(timeoutMilliseconds: 1000))
    }
}
