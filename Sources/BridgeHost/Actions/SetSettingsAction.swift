import BridgeJSON
import SharedSuite

/// `setSettings {settings: {enabled?, theme?}}`: the popup's switch.
public struct SetSettingsAction: BridgeAction {
    public let name = "setSettings"
    /// It writes whole values (`enabled`, `theme`): twice is the same as once.
    public var resendSafe: Bool { true }
    public init() {}

    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        if request.isDeferred("settings") {  // only `enabled` and `theme` can be set: never read a huge one
            return .error(
                .invalidRequest, "settings is over \(BridgeRequest.deferredBytes) bytes; it holds enabled and theme")
        }
        guard let changes = request["settings"]?.objectValue, !changes.isEmpty else {
            return .error(.invalidRequest, "setSettings needs a non-empty settings object")
        }
        var enabled: Bool?
        var theme: String?
        for (key, value) in changes {
            switch (key, value) {
            case ("enabled", .bool(let b)): enabled = b
            case ("theme", .string(let t)) where t.utf8.count <= 64: theme = t
            case ("enabled", _), ("theme", _):
                return .error(.invalidRequest, "settings.\(key) has the wrong type (\(value.typeName))")
            default:
                return .error(
                    .invalidRequest, "settings.\(key) cannot be set from the extension (allowed: enabled, theme)")
            }
        }
        do throws(SuiteError) {
            try context.suite.update { values in
                if let enabled { SuiteKeys.setEnabled(enabled, in: &values) }
                if let theme { values[SuiteKeys.theme] = .string(theme) }
            }
            return .success(["settings": PageState.settingsValue(try context.suite.snapshot())])
        } catch {
            context.logger.warn("setSettings: \(error)")
            return .failure(error)
        }
    }
}
