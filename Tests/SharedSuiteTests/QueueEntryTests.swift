import BridgeSystem
import Testing

@testable import SharedSuite

@Suite struct QueueEntryTests {
    /// An item the drain cannot read keeps its id, so a person can find and remove it.
    @Test func id_ofEveryKindOfEntry() {
        let item = QueueItem(id: "i1", url: "u", title: nil, content: "", savedAt: WallTime(seconds: 0), source: "s")
        #expect(QueueEntry.item(item).id == "i1")
        #expect(QueueEntry.unsupported(id: "i2", formatVersion: 9).id == "i2")
        #expect(QueueEntry.unreadable(id: "i3", reason: "bad").id == "i3")
    }
}
