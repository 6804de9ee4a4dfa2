import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

@Suite struct UnavailableStorageTests {
    /// With no group container (no HOME, a bad group id) every storage action answers
    /// `storage_error` with the reason, and the host still answers `hello`.
    @Test func everyStorageCall_failsWithTheReason_andHelloStillWorks() {
        let storage = UnavailableStorage(.noHome)
        #expect(throws: SuiteError.noHome) { try storage.snapshot() }
        #expect(throws: SuiteError.noHome) { try storage.update { _ in } }
        #expect(throws: SuiteError.noHome) { try storage.changeToken() }
        #expect(throws: SuiteError.noHome) { try storage.count() }
        #expect(throws: SuiteError.noHome) { try storage.entries(forURL: nil, excerptBytes: nil) }
        #expect(throws: SuiteError.noHome) { try storage.remove(id: "i") }
        #expect(throws: SuiteError.noHome) { try storage.withdraw(id: "i", source: "s") }
        #expect(throws: SuiteError.noHome) {
            try storage.append(NewQueueItem(url: "u", title: nil, content: "c", source: "s"))
        }
        let context = ActionContext(suite: storage, queue: storage, caller: Caller(kind: .unknown, identity: "unknown"))
        let endpoint = BridgeEndpoint(context: context, actions: BuiltInActions.all)
        #expect(endpoint.handle(["action": "hello"])["status"] == "success")
        let reply = endpoint.handle(["action": "queueCount"])
        #expect(reply["code"] == "storage_error")
        #expect(reply["message"] == .string(SuiteError.noHome.description))
    }
}
