import BridgeJSON
import SharedSuite

/// `saveContent {content, url, title?}`: appends an item to the pending queue.
public struct SaveContentAction: BridgeAction {
    public let name = "saveContent"
    public init() {}

    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        guard let content = request.string("content"), let url = request.string("url") else {
            return .error(.missingField, "Missing content or URL")
        }
        var title: String?
        switch request["title"] {
        case nil, .null?: title = nil
        case .string(let t)?: title = t
        default: return .error(.invalidRequest, "title must be a string")
        }
        do throws(SuiteError) {
            let item = try context.queue.append(
                url: url, title: title, content: content, source: context.caller.identity)
            // Sizes only: saved content never goes to the log.
            context.logger.info("saved item \(item.id) (\(item.contentBytes) bytes)")
            SeedSaveKeys.update(url: url, content: content, in: context)
            return .success(["message": "Content saved", "itemId": .string(item.id)])
        } catch {
            context.logger.warn("saveContent: \(error)")
            return .failure(error)
        }
    }
}
