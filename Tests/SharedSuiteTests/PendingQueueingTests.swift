import TestSupport
import Testing

@testable import SharedSuite

@Suite struct PendingQueueingTests {
    /// The keyless append every queue gets: each call queues a page of its own.
    @Test func appendWithoutAKey_queuesAPageEachTime() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let queue: any PendingQueueing = PendingQueue(container: GroupContainer(path: tmp.path))
        let first = try queue.append(url: "https://a/", title: "A", content: "x", source: "s")
        let second = try queue.append(url: "https://a/", title: "A", content: "x", source: "s")
        #expect(first.id != second.id)
        #expect(first.kind == "page" && first.key == nil && first.title == "A")
        #expect(try queue.count() == 2)
    }
}
