import BridgeJSON
import BridgeSystem
import TestSupport
import Testing

@testable import SharedSuite

/// Idempotency keys on the real disk: what two hosts (two `PendingQueue`s on
/// one container) see, the window, drains and undo.
@Suite struct PendingQueueKeyTests {
    final class Now: @unchecked Sendable {
        var seconds: Int64 = 1_800_000_000
        func wallTime() -> WallTime { WallTime(seconds: seconds) }
    }

    func selection(_ key: String?, source: String = "chrome-extension://x/") -> NewQueueItem {
        NewQueueItem(
            url: "https://a/", title: "A", content: "picked", source: source, kind: .selection,
            pageURL: "https://a/", key: key)
    }

    @Test func sameKeyFromTwoHosts_queuesOnce_andBothAnswerTheSameId() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let hostA = PendingQueue(container: GroupContainer(path: tmp.path))
        let hostB = PendingQueue(container: GroupContainer(path: tmp.path))
        let first = try hostA.append(selection("k"))
        let second = try hostB.append(selection("k"))
        #expect(!first.duplicate && second.duplicate)
        #expect(first.item.id == second.item.id)
        #expect(try hostA.count() == 1)
        guard case .item(let stored)? = try hostA.load(id: first.item.id, excerptBytes: nil) else {
            Issue.record("item not readable")
            return
        }
        #expect(stored.kind == "selection" && stored.pageURL == "https://a/" && stored.key == "k")
        // Another source's key of the same text is its own.
        #expect(try !hostB.append(selection("k", source: "other@addon")).duplicate)
        // No key: every append is new.
        #expect(try !hostA.append(selection(nil)).duplicate && !hostA.append(selection(nil)).duplicate)
    }

    @Test func aKey_isRememberedWhileItsItemWaits_untilTheWindowEnds() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let now = Now()
        let queue = PendingQueue(
            container: GroupContainer(path: tmp.path), limits: QueueLimits(keyWindowSeconds: 60), clock: now.wallTime)
        let first = try queue.append(selection("k"))
        now.seconds += 59
        #expect(try queue.append(selection("k")).duplicate)  // a resend while the item waits adds nothing
        #expect(try queue.count() == 1)
        now.seconds += 1
        #expect(try !queue.append(selection("k")).duplicate)
        #expect(try queue.count() == 2)
        _ = first
    }

    /// Issue 28, finding 5: the app drained the item (or it was removed):
    /// the same key is not a duplicate any more, the save queues a new item.
    @Test func aKey_whoseItemWasDrained_queuesANewItem() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let now = Now()
        let queue = PendingQueue(container: GroupContainer(path: tmp.path), clock: now.wallTime)
        let other = PendingQueue(container: GroupContainer(path: tmp.path), clock: now.wallTime)
        let first = try queue.append(selection("k"))
        try queue.remove(id: first.item.id)  // the app drained it
        now.seconds += 3 * 3_600
        let again = try queue.append(selection("k"))
        #expect(!again.duplicate)
        #expect(again.item.id != first.item.id)
        #expect(try queue.count() == 1)
        // The new item holds the key now: a resend of it is a duplicate of the new one.
        let resend = try other.append(selection("k"))
        #expect(resend.duplicate && resend.item.id == again.item.id)
        #expect(try queue.count() == 1)
    }

    @Test func keysOlderThanTheWindow_areRemovedByTheNextClaim() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let now = Now()
        let queue = PendingQueue(
            container: GroupContainer(path: tmp.path), limits: QueueLimits(keyWindowSeconds: 60), clock: now.wallTime)
        let keys = tmp.path + "/queue/.keys"
        _ = try queue.append(selection("a"))
        _ = try queue.append(selection("b"))
        #expect(try FileSystem.listDirectory(keys).count == 2)
        now.seconds += 60
        _ = try queue.append(selection("c"))
        #expect(try FileSystem.listDirectory(keys).count == 1)
    }

    /// Once the item is written, a key that cannot be claimed (here `.keys`
    /// is a file) never turns the save into an error: the item stays.
    @Test func aKeyThatCannotBeClaimed_stillSavesTheItem() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let queue = PendingQueue(container: GroupContainer(path: tmp.path))
        try FileSystem.makeDirectories(tmp.path + "/queue")
        try FileSystem.writeAtomically(tmp.path + "/queue/.keys", Array("not a folder".utf8))
        let result = try queue.append(selection("k"))
        #expect(!result.duplicate)
        #expect(try queue.count() == 1)
    }

    @Test func withdraw_removesOnlyTheSourcesItem_andForgetsItsKey() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let queue = PendingQueue(container: GroupContainer(path: tmp.path))
        let item = try queue.append(selection("k")).item
        #expect(try !queue.withdraw(id: item.id, source: "other@addon"))
        #expect(try !queue.withdraw(id: "../suite", source: item.source))
        #expect(try queue.count() == 1)
        #expect(try queue.withdraw(id: item.id, source: item.source))
        #expect(try !queue.withdraw(id: item.id, source: item.source))
        #expect(try !queue.append(selection("k")).duplicate)
    }
}
