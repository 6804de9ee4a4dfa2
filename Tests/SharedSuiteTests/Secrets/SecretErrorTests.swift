import Testing

@testable import SharedSuite

@Suite struct SecretErrorTests {
    /// A name comes from a command line or a page: shown escaped and cut, so it cannot act on
    /// the terminal or flood a log.
    @Test func descriptions_showTheNameSafely_andSayWhatToDo() {
        #expect(
            SecretError.notFound("api").description
                == "no secret named 'api' in this group; see `extension-bridge secret list`")
        #expect(SecretError.unavailable("no session bus").description == "secrets unavailable: no session bus")
        let hostile = "a\u{1B}]52;c;x\u{7}b\u{202E}" + String(repeating: "z", count: 100)
        let shown = SecretError.invalidName(hostile, "too long").description
        #expect(shown.hasPrefix("invalid secret name 'a\\u{1b}]52;c;x\\u{7}b\\u{202e}zz"))
        #expect(shown.hasSuffix("…': too long"))
        #expect(!shown.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
        #expect(SecretError.invalidValue("empty").description == "invalid secret value: empty")
    }
}
