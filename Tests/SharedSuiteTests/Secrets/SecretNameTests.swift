import SharedSuite
import Testing

@Suite struct SecretNameTests {
    @Test func goodNames_areAccepted() throws {
        for name in ["api-token", "A.b_c-1", "x", String(repeating: "n", count: 128)] {
            try SecretName.validate(name)
        }
    }

    @Test func badNames_areRefusedWithTheReason() {
        let cases: [(String, String)] = [
            ("", "empty"), (String(repeating: "n", count: 129), "129 bytes"), (".hidden", "starts with '.'"),
            ("-x", "starts with '-'"), ("../x", "starts with '.'"), ("x/../y", "only ASCII"), ("a/b", "only ASCII"),
            ("a b", "only ASCII"),
            ("nul\0", "only ASCII"), ("line\nbreak", "only ASCII"), ("é", "only ASCII"), ("\u{202E}evil", "only ASCII"),
        ]
        for (name, why) in cases {
            #expect(throws: SecretError.self, "\(name)") { try SecretName.validate(name) }
            do {
                try SecretName.validate(name)
            } catch {
                #expect(error.description.contains(why), "\(error)")
                // The message shows control characters escaped, never raw.
                #expect(!error.description.contains("\n") && !error.description.contains("\0"))
            }
        }
    }

    @Test func values_mustBeUTF8_nonEmpty_andAtMost64KiB() throws {
        try SecretName.validateValue(Array("tøken".utf8))
        try SecretName.validateValue([UInt8](repeating: 0x61, count: SecretName.maxValueBytes))
        #expect(throws: SecretError.self) { try SecretName.validateValue([]) }
        #expect(throws: SecretError.self) {
            try SecretName.validateValue([UInt8](repeating: 0x61, count: SecretName.maxValueBytes + 1))
        }
        #expect(throws: SecretError.self) { try SecretName.validateValue([0xFF, 0xFE]) }
    }
}
