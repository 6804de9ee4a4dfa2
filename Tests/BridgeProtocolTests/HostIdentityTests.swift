import Testing

@testable import BridgeProtocol

@Suite struct HostIdentityTests {
    /// A group id becomes a folder name, a configuration value and an argument to `secret-tool`:
    /// one that could be a hidden folder, an option, a path or a second value is refused.
    @Test(arguments: [
        "group.org.extensionbridge.shared", "a", "A-b_c.9", String(repeating: "g", count: 200),
    ])
    func isGroupID_acceptsPlainNames(_ id: String) {
        #expect(HostIdentity.isGroupID(id))
    }

    @Test(arguments: [
        "", ".hidden", "-option", "a/b", "..", "a b", "a\nb", "é", "a,b", "a#b", String(repeating: "g", count: 201),
    ])
    func isGroupID_refusesWhatCouldMeanSomethingElse(_ id: String) {
        #expect(!HostIdentity.isGroupID(id))
    }

    /// Chromium-family manifests list `allowed_origins`, Firefox's `allowed_extensions`: a
    /// manifest with the other browser's key allows nobody.
    @Test func allowedCallersKey_perBrowserFamily() {
        #expect(HostIdentity.allowedCallersKey(chromium: true) == "allowed_origins")
        #expect(HostIdentity.allowedCallersKey(chromium: false) == "allowed_extensions")
    }
}
