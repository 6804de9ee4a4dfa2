import Testing

@testable import BridgeProtocol

@Suite struct ExtensionOriginTests {
    /// Chromium passes the caller's origin with one trailing slash; manifests and allowlists
    /// written by hand may have none or several. All compare equal once normalised.
    @Test func origin_isNormalised() {
        #expect(ExtensionOrigin.normalized("chrome-extension://abc") == "chrome-extension://abc/")
        #expect(ExtensionOrigin.normalized("chrome-extension://abc//") == "chrome-extension://abc/")
        #expect(ExtensionOrigin.chromium(id: "abc") == "chrome-extension://abc/")
    }

}
