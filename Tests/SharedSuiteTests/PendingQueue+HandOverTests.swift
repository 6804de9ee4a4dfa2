import BridgeSystem
import TestSupport
import Testing

@testable import SharedSuite

@Suite struct PendingQueueHandOverTests {
    @Test func drain_handsEachItemOverOnce_oldestFirst_keepingRefusedAndUnreadable() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let queue = PendingQueue(container: GroupContainer(path: tmp.path))
        var t: Int64 = 1_700_000_000
        let clocked = PendingQueue(
            container: GroupContainer(path: tmp.path),
            clock: {
                t += 1; return WallTime(seconds: t)
            })
        let first = try clocked.append(url: "https://a/", title: "A", content: "one", source: "test")
        let second = try clocked.append(url: "https://b/", title: nil, content: "two", source: "test")
        let third = try clocked.append(url: "https://c/", title: nil, content: "three", source: "test")
        try FileSystem.writeAtomically(tmp.path + "/queue/zz-broken.json", Array("{".utf8), permissions: 0o600)

        var seen: [String] = []
        let handed = try queue.drain { item in
            seen.append(item.content)
            return item.id != second.id  // the app could not take this one now
        }
        #expect(handed == 2)
        #expect(seen == ["one", "two", "three"])
        #expect(try queue.ids().sorted() == [second.id, "zz-broken"].sorted())
        // Again: only the kept one is handed over; the unreadable one stays for a person.
        #expect(try queue.handOver(id: second.id) { $0.content == "two" } == .handedOver)
        #expect(try queue.handOver(id: first.id) { _ in true } == .vanished)
        guard case .unreadable = try queue.handOver(id: "zz-broken", to: { _ in true }) else {
            Issue.record("the broken item is reported unreadable")
            return
        }
        #expect(try queue.ids() == ["zz-broken"])
        _ = third
    }
}
