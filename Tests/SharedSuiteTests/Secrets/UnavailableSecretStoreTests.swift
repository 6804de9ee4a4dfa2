import Testing

@testable import SharedSuite

@Suite struct UnavailableSecretStoreTests {
    /// A context given no store reaches no keyring: every call fails with the reason, and
    /// nothing is stored anywhere instead.
    @Test func everyCall_isUnavailableWithTheReason() {
        let store = UnavailableSecretStore(reason: "no store in tests")
        let unavailable = SecretError.unavailable("no store in tests")
        #expect(store.backendName == "none")
        #expect(throws: unavailable) { try store.store([1], named: "a", shared: true) }
        #expect(throws: unavailable) { try store.value(named: "a", sharedOnly: false) }
        #expect(throws: unavailable) { try store.delete(named: "a") }
        #expect(throws: unavailable) { try store.list() }
    }
}
