import BridgeSystem
import Testing

@testable import BridgeKeychain

/// The real Keychain is macOS's, untested here (the test machines run Linux). What is tested is
/// the other side of the promise: elsewhere every call fails with `unsupported`, never touching
/// anything, so the CLI can say there is no Keychain.
@Suite struct KeychainTests {
    @Test(.enabled(if: !Platform.isMacOS, "the real Keychain is untested here"))
    func everyCall_isUnsupported_whereThereIsNoKeychain() {
        #expect(throws: Keychain.Failure.unsupported) {
            try Keychain.set(service: "extension-bridge:g", account: "a", comment: "shared", value: [1])
        }
        #expect(throws: Keychain.Failure.unsupported) { try Keychain.get(service: "extension-bridge:g", account: "a") }
        #expect(throws: Keychain.Failure.unsupported) {
            try Keychain.delete(service: "extension-bridge:g", account: "a")
        }
        #expect(throws: Keychain.Failure.unsupported) { try Keychain.list(service: "extension-bridge:g") }
    }
}
