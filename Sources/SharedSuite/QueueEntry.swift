import BridgeJSON
import BridgeProtocol
import BridgeSystem

/// What the queue holds under one id.
public enum QueueEntry: Equatable, Sendable {
    /// A readable item.
    case item(QueueItem)
    /// An item written by a newer version: kept, never dropped.
    case unsupported(id: String, formatVersion: Int)
    /// An item that cannot be read: kept for a person to look at.
    case unreadable(id: String, reason: String)

    public var id: String {
        switch self {
        case .item(let item): return item.id
        case .unsupported(let id, _), .unreadable(let id, _): return id
        }
    }
}
