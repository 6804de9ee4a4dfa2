import BridgeJSON
import BridgeSystem
import SharedSuite

/// An in-memory queue for tests.
public final class MemoryQueue: PendingQueueing {
    public var items: [QueueItem] = []
    public var failure: SuiteError?
    private var next = 0
    private let clock: () -> WallTime

    public init(clock: @escaping () -> WallTime = { WallTime(seconds: 1_700_000_000) }) { self.clock = clock }

    /// Keys dedupe for as long as their item is here (no time window).
    public func append(_ new: NewQueueItem) throws(SuiteError) -> AppendResult {
        if let failure { throw failure }
        if let key = new.key, let earlier = items.first(where: { $0.key == key && $0.source == new.source }) {
            return AppendResult(item: earlier, duplicate: true)
        }
        next += 1
        let item = QueueItem(
            id: "item-\(next)", url: new.url, title: new.title, content: new.content, savedAt: clock(),
            source: new.source, kind: new.kind.rawValue, pageURL: new.pageURL, key: new.key)
        items.append(item)
        return AppendResult(item: item, duplicate: false)
    }

    public func withdraw(id: String, source: String) throws(SuiteError) -> Bool {
        if let failure { throw failure }
        guard items.contains(where: { $0.id == id && $0.source == source }) else { return false }
        items.removeAll { $0.id == id }
        return true
    }

    public func entries(forURL url: String?, excerptBytes: Int?) throws(SuiteError) -> [QueueEntry] {
        if let failure { throw failure }
        return items.filter { url == nil || $0.url == url }.map { item in
            var item = item
            if let excerptBytes { item.content = item.content.prefix(utf8Bytes: excerptBytes) }
            return .item(item)
        }
    }

    public func count() throws(SuiteError) -> Int {
        if let failure { throw failure }
        return items.count
    }

    public func remove(id: String) throws(SuiteError) {
        items.removeAll { $0.id == id }
    }
}
