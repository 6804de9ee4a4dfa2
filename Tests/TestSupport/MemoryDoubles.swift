import BridgeJSON
import BridgeSystem
import SharedSuite

/// An in-memory suite for tests and previews. Not shared between processes.
public final class MemorySuiteStore: SuiteStore {
    /// Setting it directly counts as a change too (the token moves on).
    public var values: [String: SuiteValue] { didSet { generation += 1 } }
    /// When set, every read and write fails with it (fault injection in tests).
    public var failure: SuiteError?
    private var generation: UInt64 = 0

    public init(_ values: [String: SuiteValue] = [:]) { self.values = values }

    public func snapshot() throws(SuiteError) -> SuiteSnapshot {
        if let failure { throw failure }
        return SuiteSnapshot(values: values, version: token)
    }

    public func update(_ change: (inout [String: SuiteValue]) -> Void) throws(SuiteError) {
        if let failure { throw failure }
        change(&values)
    }

    public func changeToken() throws(SuiteError) -> ChangeToken? {
        if let failure { throw failure }
        return token
    }

    private var token: ChangeToken { ChangeToken(counter: generation) }
}

/// An in-memory queue for tests.
public final class MemoryQueue: PendingQueueing {
    public var items: [QueueItem] = []
    public var failure: SuiteError?
    private var next = 0
    private let clock: () -> WallTime

    public init(clock: @escaping () -> WallTime = { WallTime(seconds: 1_700_000_000) }) { self.clock = clock }

    public func append(url: String, title: String?, content: String, source: String) throws(SuiteError) -> QueueItem {
        if let failure { throw failure }
        next += 1
        let item = QueueItem(
            id: "item-\(next)", url: url, title: title, content: content, savedAt: clock(), source: source)
        items.append(item)
        return item
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

/// A monotonic clock a test moves by hand.
public final class ManualClock: @unchecked Sendable {
    private var nanoseconds: Int64 = 1_000_000_000

    public init() {}

    public var clock: MonotonicClock { MonotonicClock { [self] in nanoseconds } }

    public func advance(milliseconds: Int64) { nanoseconds += milliseconds * 1_000_000 }
}
