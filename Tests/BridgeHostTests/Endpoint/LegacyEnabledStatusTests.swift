import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

@Suite struct LegacyEnabledStatusTests {
    /// One rule for "enabled": the legacy reply, getSettings, getContent and
    /// getPageState agree whatever the two keys hold (two keys that could disagree
    /// made the popup say "off" while pages were rewritten); extensionEnabled is the
    /// source, the seed's key counts only when extensionEnabled is not stored.
    @Test(
        arguments: [
            (["user_defaults_suite_enabled": .bool(false), "extensionEnabled": .bool(true)], true),
            (["user_defaults_suite_enabled": .bool(true), "extensionEnabled": .bool(false)], false),
            (["user_defaults_suite_enabled": .bool(true)], true),
            (["user_defaults_suite_enabled": .string("YES")], true),
            (["extensionEnabled": .int(1)], true),
            (["extensionEnabled": .string("no"), "user_defaults_suite_enabled": .bool(true)], false),
            ([:], false),
        ] as [([String: SuiteValue], Bool)])
    func enabled_oneRuleForEveryReply(values: [String: SuiteValue], enabled: Bool) {
        let (endpoint, _, _) = makeEndpoint(values)
        #expect(endpoint.handle(["message": "request:enabled_status"]) == ["delivery:enabled_status": .bool(enabled)])
        #expect(endpoint.handle(["action": "getSettings"])["settings"]?["enabled"] == .bool(enabled))
        #expect(endpoint.handle(["action": "getContent", "url": "u"])["enabled"] == .bool(enabled))
        #expect(endpoint.handle(["action": "getPageState"])["enabled"] == .bool(enabled))
    }
}
