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

    /// With exactIntegers an integer 64 bits cannot hold is refused where it starts, not rounded;
    /// the extremes that fit, fractions and exponents read as before.
    @Test func parse_exactIntegers_refusesAnIntegerBeyond64Bits() throws {
        #expect(throws: JSONError.inexactInteger(offset: 5)) {
            try JSONParser.parse(#"{"b":123456789012345678901234567890}"#, exactIntegers: true)
        }
        #expect(throws: JSONError.inexactInteger(offset: 1)) {
            try JSONParser.parse("[-9223372036854775809]", exactIntegers: true)
        }
        #expect(
            try JSONParser.parse("[9223372036854775807,-9223372036854775808]", exactIntegers: true) == [
                .int(Int.max), .int(Int.min),
            ])
        #expect(
            try JSONParser.parse("[1.5e300,1e30,12345678901234567890.0]", exactIntegers: true) == [
                1.5e300, 1e30, 12_345_678_901_234_567_890.0,
            ])
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
