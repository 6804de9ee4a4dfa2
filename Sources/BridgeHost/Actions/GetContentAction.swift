import BridgeJSON
import SharedSuite

/// `getContent {url}`: the page rules and the items saved for that URL, and
/// the seed's `data` (the newest saved content for the URL, an excerpt).
public struct GetContentAction: BridgeAction {
    public let name = "getContent"
    /// Asking again gives the same answer (a read): resent when a port drops with it in flight.
    public var resendSafe: Bool { true }
    public init() {}

    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        guard let url = request.string("url") else {
            return .error(.invalidRequest, "getContent needs a string url")
        }
        do throws(SuiteError) {
            let snapshot = try context.suite.snapshot()
            let entries = try context.queue.entries(forURL: url, excerptBytes: HostLimits.excerptBytes)
            var items: [JSONValue] = []
            for case .item(let item) in entries.prefix(HostLimits.maxItemsPerPage) {
                items.append(
                    .object([
                        "id": .string(item.id),
                        "title": item.title.map { .string($0.prefix(utf8Bytes: HostLimits.titleBytes)) } ?? .null,
                        "savedAt": .string(item.savedAt.iso8601), "contentBytes": .int(item.contentBytes),
                        "excerpt": .string(item.content),
                    ]))
            }
            // The seed's `data`: the newest saved content for the URL (an excerpt), "" when none.
            var data = ""
            for case .item(let item) in entries.reversed() {
                data = item.content
                break
            }
            var reply = BridgeReply.success([
                "url": .string(url), "enabled": .bool(SuiteKeys.isEnabled(snapshot)),
                "items": .array(items), "data": .string(data),
            ])
            reply.set("rules", encoded: context.pageState.rules(of: snapshot))
            return reply
        } catch {
            context.logger.warn("getContent: \(error)")
            return .failure(error)
        }
    }
}
