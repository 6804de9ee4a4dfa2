import BridgeJSON
import BridgeSystem
import Testing

@testable import SharedSuite

@Suite struct QueueItemTests {
    /// What `queue drain --json` hands an app: the format version, the content inline, the date
    /// as ISO 8601, `title` always present (null when none), `pageUrl` and `key` only when set.
    @Test func json_isTheDrainsRecord() {
        let savedAt = WallTime(seconds: 1_795_978_622, nanoseconds: 123_000_000)
        let page = QueueItem(id: "a", url: "https://a/", title: nil, content: "é", savedAt: savedAt, source: "s")
        #expect(page.contentBytes == 2)
        #expect(
            page.json == [
                "formatVersion": 1, "id": "a", "url": "https://a/", "title": nil, "content": "é",
                "savedAt": "2026-11-29T18:57:02.123Z", "source": "s", "kind": "page",
            ])
        let selection = QueueItem(
            id: "b", url: "https://a/", title: "T", content: "", contentBytes: 10, savedAt: savedAt, source: "s",
            kind: QueueItem.Kind.selection.rawValue, pageURL: "https://a/", key: "k1")
        #expect(selection.contentBytes == 10, "an excerpt keeps the whole content's size")
        #expect(selection.json["kind"] == "selection")
        #expect(selection.json["pageUrl"] == "https://a/")
        #expect(selection.json["key"] == "k1")
        #expect(selection.json["title"] == "T")
    }
}
