import BridgeJSON
import BridgeSystem

/// One item the extension saved, waiting for `queue drain`.
public struct QueueItem: Equatable, Sendable {
    /// The queue format this code writes and reads.
    public static let formatVersion = 1

    public var id: String
    public var url: String
    public var title: String?
    /// The content; empty when only an excerpt was loaded.
    public var content: String
    /// Size of the content in UTF-8 bytes.
    public var contentBytes: Int
    public var savedAt: WallTime
    /// Who saved it: the caller origin or add-on id of the host process.
    public var source: String

    public init(
        id: String, url: String, title: String?, content: String, contentBytes: Int? = nil,
        savedAt: WallTime, source: String
    ) {
        self.id = id
        self.url = url
        self.title = title
        self.content = content
        self.contentBytes = contentBytes ?? content.utf8.count
        self.savedAt = savedAt
        self.source = source
    }

    /// The item as the drain hands it over (`--json`), content inline.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "formatVersion": .int(QueueItem.formatVersion), "id": .string(id), "url": .string(url),
            "content": .string(content), "savedAt": .string(savedAt.iso8601), "source": .string(source),
        ]
        members["title"] = title.map(JSONValue.string) ?? .null
        return .object(members)
    }
}

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

/// Quotas of the pending queue.
public struct QueueLimits: Equatable, Sendable {
    /// Most items waiting at once.
    public var maxItems: Int
    /// Most bytes (items and their content files) waiting at once.
    public var maxBytes: Int
    /// Largest content of one item, in UTF-8 bytes.
    public var maxItemBytes: Int
    /// Content larger than this goes to a shared file instead of inline.
    public var inlineBytes: Int

    public init(
        maxItems: Int = 10_000, maxBytes: Int = 512 << 20, maxItemBytes: Int = 64 << 20, inlineBytes: Int = 64 << 10
    ) {
        self.maxItems = maxItems
        self.maxBytes = maxBytes
        self.maxItemBytes = maxItemBytes
        self.inlineBytes = inlineBytes
    }

    /// Defaults, overridden by `EXTENSION_BRIDGE_QUEUE_MAX_ITEMS`,
    /// `EXTENSION_BRIDGE_QUEUE_MAX_BYTES` and `EXTENSION_BRIDGE_ITEM_MAX_BYTES`.
    public init(environment: Environment) {
        self.init()
        if let v = environment["EXTENSION_BRIDGE_QUEUE_MAX_ITEMS"].flatMap({ Int($0) }), v >= 0 { maxItems = v }
        if let v = environment["EXTENSION_BRIDGE_QUEUE_MAX_BYTES"].flatMap({ Int($0) }), v >= 0 { maxBytes = v }
        if let v = environment["EXTENSION_BRIDGE_ITEM_MAX_BYTES"].flatMap({ Int($0) }), v >= 0 { maxItemBytes = v }
    }
}
