import Testing

@testable import BridgeJSON

@Suite struct JSONParserTests {
    @Test func parse_allTypes() throws {
        let value = try JSONParser.parse(#"{"a":[1,-2,3.5,1e3,true,false,null,"x"],"b":{}}"#)
        #expect(value["a"] == [1, -2, 3.5, 1000.0, true, false, nil, "x"])
        #expect(value["b"] == .object([:]))
    }

    @Test func parse_integerStaysInteger_fractionIsDouble() throws {
        #expect(try JSONParser.parse("5") == .int(5))
        #expect(try JSONParser.parse("5.0") == .double(5))
        #expect(try JSONParser.parse("-0") == .int(0))
        #expect(try JSONParser.parse("9223372036854775807") == .int(Int.max))
        #expect(try JSONParser.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
    }

    /// Read as written, what would be kept otherwise is refused where it starts: an integer 64 bits
    /// cannot hold (not rounded), a number too small for a double (not 0), a key given twice (not
    /// the last kept). The extremes that fit, fractions, exponents and zeros read as before.
    @Test func parse_asWritten_refusesWhatWouldBeKeptOtherwise() throws {
        func refusal(_ text: String) -> (Int, String)? {
            do {
                _ = try JSONParser.parse(text, asWritten: true)
                return nil
            } catch {
                guard case .notAsWritten(let offset, let reason) = error else { return (-1, "\(error)") }
                return (offset, reason)
            }
        }
        #expect(refusal(#"{"b":123456789012345678901234567890}"#)?.0 == 5)
        #expect(refusal("[-9223372036854775809]")?.1.hasPrefix("the integer does not fit 64 bits") == true)
        #expect(refusal("[1e-400]")?.1 == "the number is too small for a floating-point number: it would be kept as 0")
        #expect(refusal(#"{"n":{"a":1,"a":2}}"#)?.0 == 12)
        #expect(
            refusal(#"{"a":1,"a":2}"#)?.1 == "the key 'a' is given twice in one object: only the last would be kept")
        #expect(
            try JSONParser.parse("[9223372036854775807,-9223372036854775808,0e-400,0.0,-0]", asWritten: true) == [
                .int(Int.max), .int(Int.min), 0.0, 0.0, .int(0),
            ])
        #expect(
            try JSONParser.parse("[1.5e300,1e30,12345678901234567890.0,5e-324]", asWritten: true) == [
                1.5e300, 1e30, 12_345_678_901_234_567_890.0, 5e-324,
            ])
        #expect(try JSONParser.parse(#"[{"a":1},{"a":2}]"#, asWritten: true) == [["a": 1], ["a": 2]])
        #expect(try JSONParser.parse(#"{"a":1,"a":2}"#) == ["a": 2], "without it, the last one wins")
    }

    @Test func parse_escapes_decode() throws {
        #expect(try JSONParser.parse(#""a\"b\\c\/d\n\t\r\b\f\u0041""#) == .string("a\"b\\c/d\n\t\r\u{8}\u{c}A"))
    }

    @Test func parse_surrogatePair_becomesOneScalar() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
    }

    @Test func parse_loneSurrogate_becomesReplacementCharacter() throws {
        #expect(try JSONParser.parse(#""a\ud800b""#) == .string("a\u{FFFD}b"))
        #expect(try JSONParser.parse(#""\udc00""#) == .string("\u{FFFD}"))
    }

    @Test func parse_rawUnicode_keptExactly() throws {
        let text = "blå \u{2028} \u{2029} 😀 naïve 中文"
        #expect(try JSONParser.parse(Array("\"\(text)\"".utf8)) == .string(text))
    }

    @Test func parse_invalidUTF8_isReportedAsSuch() {
        #expect(throws: JSONError.invalidUTF8(offset: 2)) { try JSONParser.parse([0x22, 0x61, 0xFF, 0x22]) }
        // An overlong encoding and an encoded surrogate are invalid too.
        #expect(throws: JSONError.invalidUTF8(offset: 1)) { try JSONParser.parse([0x22, 0xC0, 0xAF, 0x22]) }
        #expect(throws: JSONError.invalidUTF8(offset: 1)) { try JSONParser.parse([0x22, 0xED, 0xA0, 0x80, 0x22]) }
        #expect(throws: JSONError.invalidUTF8(offset: 0)) { try JSONParser.parse([0xFE]) }
    }

    @Test(arguments: [
        "", "{", "}", "[1,]", "{\"a\"}", "{\"a\":1,}", "01", "1.", ".5", "-", "1e", "tru", "nul", "\"abc",
        "\"a\u{1}\"", "\"\\x\"", "\"\\u12\"", "[1 2]", "{} x", "NaN", "Infinity", "'a'", "1e999",
    ])
    func parse_invalidJSON_throwsSyntax(text: String) {
        #expect {
            try JSONParser.parse(text)
        } throws: { error in
            if case .syntax = error as? JSONError { return true }
            return false
        }
    }

    @Test func parse_deepNesting_isRefused() {
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(throws: JSONError.tooDeep(limit: 64)) { try JSONParser.parse(deep) }
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
    }

    @Test func parse_duplicateKeys_lastWins() throws {
        #expect(try JSONParser.parse(#"{"a":1,"a":2}"#) == ["a": 2])
    }

    @Test func parse_surroundingWhitespace_isAllowed() throws {
        #expect(try JSONParser.parse(" \n\t{\"a\" : [ ] }\r\n") == ["a": []])
    }
}
