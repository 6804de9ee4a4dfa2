import BridgeJSON
import Testing

/// Nothing a page or a file controls reaches a terminal as a control: an escape sequence could
/// move the cursor, retitle the window or write the clipboard, and a bidi control could reorder
/// what a person reads.
@Suite struct DisplayTextTests {
    static let controls: [Unicode.Scalar] =
        (0x00...0x1F).map { Unicode.Scalar(UInt8($0)) } + (0x7F...0x9F).map { Unicode.Scalar(UInt8($0)) }
        + Array("\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}".unicodeScalars)
        + Array("\u{2028}\u{2029}\u{061C}\u{200E}\u{200F}".unicodeScalars)

    @Test func everyControl_isEscaped_andNothingElse() {
        for scalar in DisplayTextTests.controls {
            let text = "a" + String(Character(scalar)) + "b"
            let hex = String(scalar.value, radix: 16)
            let expected = "a\\u" + String(repeating: "0", count: 4 - hex.count) + hex + "b"
            #expect(DisplayText.escaped(text) == expected)
            #expect(DisplayText.escaped(text).unicodeScalars.allSatisfy { !DisplayText.isControl($0.value) })
        }
        for plain in ["", "plain", "中文 blå naïve", "😀👍🏽", "e\u{301}", "\u{A0}", "x\u{2065}\u{2027}\u{200D}"] {
            #expect(DisplayText.escaped(plain) == plain)
        }
    }

    @Test func keptBreaks_keepNewlinesAndTabsOnly() {
        #expect(DisplayText.escaped("a\nb\tc\rd\u{1b}", breaks: .kept) == "a\nb\tc\\u000dd\\u001b")
        #expect(DisplayText.escaped("a\nb\tc") == "a\\u000ab\\u0009c")
    }

    @Test func maxBytes_cutsBetweenCharactersAndEscapes() {
        #expect(DisplayText.escaped("abcdef", maxBytes: 4) == "abcd…")
        #expect(DisplayText.escaped("ab\u{1b}cd", maxBytes: 5) == "ab…")  // the 6-byte escape does not fit
        #expect(DisplayText.escaped("aé", maxBytes: 2) == "a…")
        #expect(DisplayText.escaped(String(repeating: "\u{301}", count: 100_000), maxBytes: 64).utf8.count <= 67)
    }

    /// JSON output escaped for the terminal is still the same JSON.
    @Test func escapedJSON_decodesToTheSameValue() throws {
        let nasty = String(String.UnicodeScalarView(DisplayTextTests.controls)) + "\"\\ ok 😀"
        let value = JSONValue.object(["title": .string(nasty), nasty: .array([.string(nasty)])])
        for json in [JSONWriter.string(value), JSONWriter.prettyString(value)] {
            let shown = DisplayText.escaped(json, breaks: .kept)
            #expect(shown.unicodeScalars.allSatisfy { $0 == "\n" || !DisplayText.isControl($0.value) })
            #expect(try JSONParser.parse(shown) == value)
        }
    }
}
