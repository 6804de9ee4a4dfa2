import Testing

@testable import BrowserSupport

@Suite struct UpdateURLTests {
    @Test(arguments: [
        "http://example.com", "https://", "https:///x", "https://exa mple.com", "https://example.com/\"x",
        "https://example.com/'x", "https://example.com/\nx", "https://example.com/\u{7F}", "https://example.com/<x>",
        "https://example.com/?a=1", "https://example.com/#x", "https://user:pw@example.com", "https://example.com/../x",
        "https://ex\u{E9}.com", "ftp://example.com", "https://example.com/a\\b",
    ])
    func invalid_isAUsageError(text: String) {
        do {
            _ = try UpdateURL(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.exitStatus == 64)
            #expect(error.description.contains("--update-url"))
            #expect(!error.description.contains("\n"), "a typed newline cannot forge a line of its own")
        }
    }

    @Test func valid_dropsTrailingSlashes() throws {
        #expect(try UpdateURL("https://example.com/ext//").file("updates.xml") == "https://example.com/ext/updates.xml")
        #expect(try UpdateURL("https://example.com:8443").base == "https://example.com:8443")
    }
}
