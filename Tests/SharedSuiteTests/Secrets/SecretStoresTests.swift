import BridgeSystem
import Testing

@testable import SharedSuite

@Suite struct SecretStoresTests {
    /// The system's store: the Secret Service elsewhere, the Keychain (read through
    /// /usr/bin/security) on macOS; never a file.
    @Test func system_isThePlatformsStore() {
        let store = SecretStores.system(groupID: "g", environment: Environment([:]))
        if Platform.isMacOS {
            #expect(store is KeychainReader)
        } else {
            #expect(store is SecretServiceStore)
        }
    }
}
