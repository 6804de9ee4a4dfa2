import BridgeJSON
import SharedSuite

/// `getPageState {page?, rulesVersion?}`: what a content script needs to
/// rewrite a page — `enabled` and the rules — and nothing else: it never
/// reads the pending queue.
///
/// Rules that fit one reply come as page 0 of 1. Larger ones are split into
/// pages of whole entries, each reply under the browsers' 1 MiB, all tagged
/// with the same `rulesVersion` (a hash of the complete rules): a client asks
/// for pages 1…N-1 and starts again when a version differs. An entry too big
/// for any page is left out and counted in `undeliverable`.
public struct GetPageStateAction: BridgeAction {
    public let name = "getPageState"
    /// Asking again gives the same answer: resent when a port drops with it in flight.
    public var resendSafe: Bool { true }

    public init() {}

    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        var page = 0
        if let value = request["page"] {
            guard let number = value.intValue, number >= 0 else {
                return .error(.invalidRequest, "page must be a whole number from 0")
            }
            page = number
        }
        do throws(SuiteError) {
            // Switched off: no rules and no version of them (`PageState`). A content
            // script of any tab or frame may ask (docs/SECURITY.md, threat model).
            let snapshot = try context.suite.snapshot()
            return context.pageState.reply(page: page, of: snapshot, replyLimit: context.maxReplyBytes)
        } catch {
            context.logger.warn("getPageState: \(error)")
            return .failure(error)
        }
    }
}
