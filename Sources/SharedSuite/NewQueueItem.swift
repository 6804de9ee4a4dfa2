import BridgeJSON
import BridgeProtocol
import BridgeSystem

/// What `PendingQueueing.append` is asked to queue.
public struct NewQueueItem: Equatable, Sendable {
    public var url: String
    public var title: String?
    public var content: String
    /// The caller origin or add-on id of the host process.
    public var source: String
    public var kind: QueueItem.Kind
    /// The page a link or selection came from.
    public var pageURL: String?
    /// An idempotency key: a second append with the same key and source
    /// while the first is remembered (`QueueLimits.keyWindowSeconds`) and
    /// its item still waits in the queue queues nothing and answers the
    /// first item.
    public var key: String?

    public init(
        url: String, title: String?, content: String, source: String, kind: QueueItem.Kind = .page,
        pageURL: String? = nil, key: String? = nil
    ) {
        self.url = url
        self.title = title
        self.content = content
        self.source = source
        self.kind = kind
        self.pageURL = pageURL
        self.key = key
    }
}
