import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

@Suite struct HelloActionTests {
    @Test func hello_reportsVersionsCallerActionsAndLimits() {
        let (endpoint, _, _) = makeEndpoint()
        let reply = endpoint.handle(["action": "hello", "id": 1])
        #expect(reply["status"] == "success")
        #expect(reply["protocolVersion"] == 1)
        #expect(reply["hostVersion"] == .string(BridgeVersion.current))
        #expect(reply["name"] == "ExtensionBridge")
        #expect(reply["bridgeVersion"] == .string(BridgeVersion.current))
        #expect(reply["caller"] == "chrome-extension://abc/")
        #expect(
            reply["actions"] == [
                "getContent", "getPageState", "getSecret", "getSettings", "hello", "queueCount", "removeItem",
                "saveContent", "setSettings", "transform",
            ])
        #expect(reply["group"] == .string(GroupContainer.defaultGroupID))
        #expect(reply["limits"] == ["maxRequestBytes": 67_108_864, "maxReplyBytes": 1_048_576])
    }

    @Test func hello_ofAnAppsHost_saysTheAppsNameAndVersion() {
        var context = ActionContext(
            suite: MemorySuiteStore([:]), queue: MemoryQueue(),
            caller: Caller(kind: .chromium, identity: "chrome-extension://abc/"))
        context.app = AppIdentity(name: "Linguisticat", version: "1.0.0")
        let reply = BridgeEndpoint(context: context, actions: BuiltInActions.all).handle(["action": "hello", "id": 1])
        #expect(reply["hostVersion"] == "1.0.0")
        #expect(reply["name"] == "Linguisticat")
        #expect(reply["bridgeVersion"] == .string(BridgeVersion.current))
    }
}
