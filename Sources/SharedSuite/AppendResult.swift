import BridgeJSON
import BridgeProtocol
import BridgeSystem

/// What an append did: the item queued, or the one an earlier append with
/// the same key queued (`duplicate`).
public struct AppendResult: Equatable, Sendable {
    public var item: QueueItem
    public var duplicate: Bool

    public init(item: QueueItem, duplicate: Bool) {
        self.item = item
        self.duplicate = duplicate
    }
}
