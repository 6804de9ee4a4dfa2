import BridgeJSON
import SharedSuite

/// `getSettings`: `{status, settings: {enabled, theme}}` from the suite.
public struct GetSettingsAction: BridgeAction {
    public let name = "getSettings"
    public init() {}

    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        do throws(SuiteError) {
            let snapshot = try context.suite.snapshot()
            var reply = BridgeReply.success()
            reply.set("settings", encoded: context.published.settings(of: snapshot))
            return reply
        } catch {
            context.logger.warn("getSettings: \(error)")
            return .failure(error)
        }
    }
}
