import BridgeJSON
import BridgeProtocol
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
    /// What the user pointed at: `page`, `link` or `selection` (`Kind`); an
    /// item written before kinds existed reads as `page`.
    public var kind: String
    /// The page a link or a selection came from; nil for a page.
    public var pageURL: String?
    /// The extension's idempotency key, when it sent one (`saveContent`'s `key`).
    public var key: String?

    /// What an item can be: the share sheet's page, link and selected text.
    public enum Kind: String, CaseIterable, Sendable {
        case page, link, selection
    }

    public init(
        id: String, url: String, title: String?, content: String, contentBytes: Int? = nil,
        savedAt: WallTime, source: String, kind: String = Kind.page.rawValue, pageURL: String? = nil,
        key: String? = nil
    ) {
        self.id = id
        self.url = url
        self.title = title
        self.content = content
        self.contentBytes = contentBytes ?? content.utf8.count
        self.savedAt = savedAt
        self.source = source
        self.kind = kind
        self.pageURL = pageURL
        self.key = key
    }

    /// The item as the drain hands it over (`--json`), content inline.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "formatVersion": .int(QueueItem.formatVersion), "id": .string(id), "url": .string(url),
            "content": .string(content), "savedAt": .string(savedAt.iso8601), "source": .string(source),
            "kind": .string(kind),
        ]
        members["title"] = title.map(JSONValue.string) ?? .null
        if let pageURL { members["pageUrl"] = .string(pageURL) }
        if let key { members["key"] = .string(key) }
        return .object(members)
    }
}
