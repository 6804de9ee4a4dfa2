import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

@Suite struct ActionContextTests {
    /// A context made without a store (tests, fuzzing, an app that shares no secrets) answers
    /// `secrets_unavailable`: nothing reaches the user's keyring by accident.
    @Test func contextWithoutAStore_neverReachesTheSystemKeyring() {
        let (bridge, _, _) = makeEndpoint()
        #expect(bridge.handle(["action": "getSecret", "name": "api-token"])["code"] == "secrets_unavailable")
    }

    /// The page state is built once per suite version and shared by every copy of the context.
    @Test func copies_shareOnePageStateCache() {
        let context = ActionContext(
            suite: MemorySuiteStore([:]), queue: MemoryQueue(), caller: Caller(kind: .unknown, identity: "unknown"))
        let copy = context
        #expect(copy.pageState === context.pageState)
        #expect(context.secrets.backendName == "none")
        #expect(context.app == .extensionBridge)
    }
}
