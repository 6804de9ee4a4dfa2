import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

@Suite struct GetSettingsActionTests {
    @Test func getSettings_defaults_matchSeedShape() {
        let (endpoint, _, _) = makeEndpoint()
        #expect(
            endpoint.handle(["action": "getSettings"]) == [
                "status": "success", "settings": ["enabled": false, "theme": "auto"],
            ])
    }

    @Test func getSettings_readsSuiteKeys_coercingAsUserDefaults_ignoringOtherTypes() {
        let (endpoint, _, _) = makeEndpoint(["extensionEnabled": .bool(true), "extensionTheme": .string("dark")])
        #expect(endpoint.handle(["action": "getSettings"])["settings"] == ["enabled": true, "theme": "dark"])
        // bool(forKey:) and string(forKey:) coerce: "yes" is true, 3 is "3".
        let (coerced, _, _) = makeEndpoint(["extensionEnabled": .string("yes"), "extensionTheme": .int(3)])
        #expect(coerced.handle(["action": "getSettings"])["settings"] == ["enabled": true, "theme": "3"])
        let (wrong, _, _) = makeEndpoint(["extensionEnabled": .array([]), "extensionTheme": .data([1])])
        #expect(wrong.handle(["action": "getSettings"])["settings"] == ["enabled": false, "theme": "auto"])
    }
}
