import Testing

@testable import BrowserSupport

@Suite struct UpdateManifestsTests {
    @Test func xmlEscaping() {
        #expect(UpdateManifests.xmlEscaped("a&b<c>'d\"") == "a&amp;b&lt;c&gt;&apos;d&quot;")
        let xml = String(decoding: UpdateManifests.chromium(appID: "x'y", version: "1", codebase: "c&d"), as: UTF8.self)
        #expect(xml.contains("appid='x&apos;y'") && xml.contains("codebase='c&amp;d'"))
    }
}
