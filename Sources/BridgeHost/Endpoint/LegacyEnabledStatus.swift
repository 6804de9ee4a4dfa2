import BridgeJSON
import SharedSuite

/// The seed's legacy message: `{message: "request:enabled_status"}` →
/// `{"delivery:enabled_status": Bool}` (`SuiteKeys.isEnabled`, the rule every reply uses).
public enum LegacyEnabledStatus {
    public static let message = "request:enabled_status"
    public static let deliveryKey = "delivery:enabled_status"

    static func perform(in context: ActionContext) -> BridgeReply {
        do throws(SuiteError) {
            let snapshot = try context.suite.snapshot()
            return BridgeReply([deliveryKey: .bool(SuiteKeys.isEnabled(snapshot))])
        } catch {
            context.logger.warn("request:enabled_status: \(error)")
            return .failure(error)
        }
    }
}
