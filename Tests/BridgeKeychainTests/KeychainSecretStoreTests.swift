import BridgeSystem
import SharedSuite
import Testing

@testable import BridgeKeychain

/// `secret set/get/delete/list` on macOS; untested there here. What runs on Linux: the CLI's
/// choice of store, and what the user is told when the Keychain is missing or refuses.
@Suite struct KeychainSecretStoreTests {
    /// The CLI writes with this store on macOS only; elsewhere it uses the system's store (the
    /// Secret Service), the one the host reads.
    @Test func system_isTheKeychainOnMacOSOnly() {
        let store = KeychainSecretStore.system(groupID: "g", environment: Environment([:]))
        if Platform.isMacOS {
            #expect(store is KeychainSecretStore)
        } else {
            #expect(store is SecretServiceStore)
        }
    }

    /// Without a Keychain every call is `secrets_unavailable` with the reason; nothing is stored
    /// anywhere instead.
    @Test(.enabled(if: !Platform.isMacOS, "the real Keychain is untested here"))
    func everyCall_isUnavailable_whereThereIsNoKeychain() {
        let store = KeychainSecretStore(groupID: "group.test")
        let none = SecretError.unavailable("there is no Keychain on this system")
        #expect(throws: none) { try store.store([1], named: "api", shared: true) }
        #expect(throws: none) { try store.value(named: "api", sharedOnly: true) }
        #expect(throws: none) { try store.delete(named: "api") }
        #expect(throws: none) { try store.list() }
        #expect(store.backendName.contains("untested here"))
    }

    /// A refusal says the Keychain's own code and message, and what to do.
    @Test func aRefusal_namesTheCodeAndTheNextStep() {
        #expect(
            KeychainSecretStore.unavailable(.status(-25308, "User interaction is not allowed."))
                == .unavailable(
                    "the Keychain refused (-25308: User interaction is not allowed.); unlock it and try again"))
        #expect(KeychainSecretStore.unavailable(.unsupported) == .unavailable("there is no Keychain on this system"))
    }
}
