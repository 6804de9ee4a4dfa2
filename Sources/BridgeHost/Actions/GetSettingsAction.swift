import BridgeJSON
import SharedSuite

/// `getSettings`: `{status, settings: {enabled, theme}}` from the suite.
public struct GetSettingsAction: BridgeAction {
    public let name = "getSettings"
    /// Asking again gives the same answer (a read): resent when a port drops with it in flight.
    public var resendSafe: Bool { true }
    public init() {}

    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        do throws(SuiteError) {
            let snapshot = try context.suite.snapshot()
            var reply = BridgeReply.success()
            reply.set("settings", encoded: context.pageState.settings(of: snapshot))
            return reply
        } catch {
            context.logger.warn("getSettings: \(error)")
            return .failure(error)
        }
    }
}
