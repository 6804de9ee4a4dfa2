import BridgeJSON
import SharedSuite

/// The seed's legacy message: `{message: "request:enabled_status"}` →
/// `{"delivery:enabled_status": Bool}`, from `user_defaults_suite_enabled`,
/// falling back to `extensionEnabled`.
public enum LegacyEnabledStatus {
    public static let message = "request:enabled_status"
    public static let deliveryKey = "delivery:enabled_status"

    static func perform(in context: ActionContext) -> BridgeReply {
        do throws(SuiteError) {
            let snapshot = try context.suite.snapshot()
            let on = snapshot.bool(SettingsKeys.legacyEnabled) ?? snapshot.bool(SettingsKeys.enabled) ?? false
            return BridgeReply([deliveryKey: .bool(on)])
        } catch {
            context.logger.warn("request:enabled_status: \(error)")
            return .error(error)
        }
    }
}
