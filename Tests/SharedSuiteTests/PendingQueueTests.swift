import BridgeJSON
import BridgeSystem
import TestSupport
import Testing

@testable import SharedSuite

@Suite struct PendingQueueTests {
    func makeQueue(_ tmp: TemporaryFolder, limits: QueueLimits = QueueLimits()) -> PendingQueue {
        PendingQueue(container: GroupContainer(path: tmp.path), limits: limits)
    }

    @Test func append_thenEntries_returnsItemsOldestFirst() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let queue = makeQueue(tmp)
        let a = try queue.append(url: "https://a/", title: "A", content: "one", source: "chrome-extension://x/")
        let b = try queue.append(url: "https://b/", title: nil, content: "two", source: "ff@id")
        #expect(try queue.count() == 2)
        let entries = try queue.entries(forURL: nil, excerptBytes: nil)
        #expect(entries.map(\.id) == [a.id, b.id].sorted())
        guard case .item(let first) = entries.first(where: { $0.id == a.id }) else {
            Issue.record("missing item")
            return
        }
        #expect(first.url == "https://a/" && first.title == "A" && first.content == "one")
        #expect(first.source == "chrome-extension://x/")
    }

    @Test func entriesForURL_returnsOnlyThatURL() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let queue = makeQueue(tmp)
        _ = try queue.append(url: "https://a/", title: nil, content: "1", source: "s")
        _ = try queue.append(url: "https://b/", title: nil, content: "2", source: "s")
        _ = try queue.append(url: "https://a/", title: nil, content: "3", source: "s")
        let forA = try queue.entries(forURL: "https://a/", excerptBytes: nil)
        #expect(forA.count == 2)
        #expect(try queue.entries(forURL: "https://a", excerptBytes: nil).isEmpty)
    }

    @Test func largeContent_livesInASharedFile_andExcerptsAreShort() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let queue = makeQueue(tmp, limits: QueueLimits(inlineBytes: 10))
        let content = String(repeating: "blå ", count: 100)
        let item = try queue.append(url: "https://a/", title: nil, content: content, source: "s")
        #expect(try SharedFiles(container: queue.container).list().map(\.name) == ["content-\(item.id).txt"])
        guard case .item(let full)? = try queue.load(id: item.id, excerptBytes: nil),
            case .item(let excerpt)? = try queue.load(id: item.id, excerptBytes: 5)
        else {
            Issue.record("item not readable")
            return
        }
        #expect(full.content == content)
        #expect(excerpt.content == "blå ")  // 5 bytes: "blå " is 5, the next "b" would be 6
        #expect(excerpt.contentBytes == content.utf8.count)
        try queue.remove(id: item.id)
        #expect(try SharedFiles(container: queue.container).list().isEmpty)
        #expect(try queue.count() == 0)
    }

    @Test func quotas_giveClearErrors() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let queue = makeQueue(tmp, limits: QueueLimits(maxItems: 1, maxBytes: 1000, maxItemBytes: 5))
        #expect(throws: SuiteError.contentTooLarge(size: 6, limit: 5)) {
            try queue.append(url: "u", title: nil, content: "123456", source: "s")
        }
        _ = try queue.append(url: "u", title: nil, content: "1", source: "s")
        #expect {
            try queue.append(url: "u", title: nil, content: "2", source: "s")
        } throws: { error in
            if case .queueFull(let items, _, 1, 1000) = error as? SuiteError { return items == 1 }
            return false
        }
        #expect(try queue.count() == 1)
    }

    @Test func unknownFormatAndUnreadableItems_areKeptAndReported() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let queue = makeQueue(tmp)
        _ = try queue.append(url: "u", title: nil, content: "ok", source: "s")
        try writeRaw(
            queue.container.queuePath + "/0000000000001-0000000000000000-00000000.json", "{\"formatVersion\":9}")
        try writeRaw(queue.container.queuePath + "/0000000000002-0000000000000000-00000000.json", "{torn")
        let entries = try queue.entries(forURL: nil, excerptBytes: nil)
        #expect(entries.count == 3)
        #expect(entries[0] == .unsupported(id: "0000000000001-0000000000000000-00000000", formatVersion: 9))
        if case .unreadable = entries[1] {} else { Issue.record("expected unreadable, got \(entries[1])") }
        #expect(try queue.count() == 3)
    }

    @Test func ids_ignoreIncompleteIncomingFiles() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let queue = makeQueue(tmp)
        _ = try queue.append(url: "u", title: nil, content: "ok", source: "s")
        try writeRaw(queue.container.incomingPath + "/half.json", "{\"formatV")
        #expect(try queue.count() == 1)
    }

    @Test func urlHash_isStableFNV1a() {
        #expect(PendingQueue.urlHash("") == "cbf29ce484222325")
        #expect(PendingQueue.urlHash("a") == "af63dc4c8601ec8c")
    }

    // Idempotency keys on the real disk: what two hosts (two `PendingQueue`s on one container)
    // see, the window, drains and undo.

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

    /// The app drained the item (or it was removed): the same key is not a duplicate any more,
    /// the save queues a new item. Answering "already saved" would lose the user's save.
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
