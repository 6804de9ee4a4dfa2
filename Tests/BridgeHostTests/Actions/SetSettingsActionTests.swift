import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

@Suite struct SetSettingsActionTests {
    @Test func setSettings_writesAllowedKeys_keepsLegacyKeyInStep() {
        let (endpoint, suite, _) = makeEndpoint(["user_defaults_suite_enabled": .bool(false)])
        let reply = endpoint.handle(["action": "setSettings", "settings": ["enabled": true, "theme": "dark"]])
        #expect(reply == ["status": "success", "settings": ["enabled": true, "theme": "dark"]])
        #expect(suite.values["extensionEnabled"] == .bool(true))
        #expect(suite.values["user_defaults_suite_enabled"] == .bool(true))
    }

    @Test(
        arguments: [
            ["action": "setSettings"], ["action": "setSettings", "settings": [:]],
            ["action": "setSettings", "settings": ["enabled": "yes"]],
            ["action": "setSettings", "settings": ["vocabulary": ["a": "b"]]],
            ["action": "setSettings", "settings": ["enabled": true, "other": 1]],
            // Limits are UTF-8 bytes, not Characters: 65 bytes in 17 Characters (combining
            // marks), and megabytes in one.
            ["action": "setSettings", "settings": ["theme": .string(String(repeating: "é\u{301}\u{302}", count: 13))]],
            [
                "action": "setSettings",
                "settings": ["theme": .string("e" + String(repeating: "\u{301}", count: 1_200_000))],
            ],
        ] as [JSONValue])
    func setSettings_badRequests_writeNothing(request: JSONValue) {
        let (endpoint, suite, _) = makeEndpoint()
        #expect(endpoint.handle(request)["code"] == "invalid_request")
        #expect(suite.values.isEmpty)
    }
}
