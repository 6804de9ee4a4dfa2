import Testing

@testable import BridgeJSON

/// `readValue` + `finish` over all of `bytes`: the value, or the error.
private func read(_ bytes: [UInt8], maximumDepth: Int = JSONParser.defaultMaximumDepth) -> Result<JSONValue, JSONError>
{
    bytes.withUnsafeBufferPointer { buffer in
        var reader = JSONReader(buffer, maximumDepth: maximumDepth)
        do throws(JSONError) {
            let value = try reader.readValue()
            try reader.finish()
            return .success(value)
        } catch {
            return .failure(error)
        }
    }
}

/// `skipValue` + `finish` over all of `bytes`: the value's range, or the error.
private func skip(_ bytes: [UInt8], maximumDepth: Int = JSONParser.defaultMaximumDepth) -> Result<Range<Int>, JSONError>
{
    bytes.withUnsafeBufferPointer { buffer in
        var reader = JSONReader(buffer, maximumDepth: maximumDepth)
        do throws(JSONError) {
            let range = try reader.skipValue()
            try reader.finish()
            return .success(range)
        } catch {
            return .failure(error)
        }
    }
}

/// The range of `bytes` without JSON white space at either end.
private func trimmed(_ bytes: [UInt8]) -> Range<Int> {
    let space: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
    var start = 0
    var end = bytes.count
    while start < end && space.contains(bytes[start]) { start += 1 }
    while end > start && space.contains(bytes[end - 1]) { end -= 1 }
    return start..<end
}

/// Checks that skipping accepts and refuses exactly what reading does (same error),
/// that the skipped range is the value's text, and that `JSONParser` agrees.
private func expectAgreement(
    _ bytes: [UInt8], maximumDepth: Int = JSONParser.defaultMaximumDepth,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let text = String(decoding: bytes, as: UTF8.self).debugDescription
    switch (read(bytes, maximumDepth: maximumDepth), skip(bytes, maximumDepth: maximumDepth)) {
    case (.success(let value), .success(let range)):
        #expect(range == trimmed(bytes), "range of \(text)", sourceLocation: sourceLocation)
        #expect(
            (try? JSONParser.parse(bytes, maximumDepth: maximumDepth)) == value, "parse of \(text)",
            sourceLocation: sourceLocation)
    case (.failure(let readError), .failure(let skipError)):
        #expect(readError == skipError, "errors for \(text)", sourceLocation: sourceLocation)
        #expect(
            throws: readError, "parse of \(text)", sourceLocation: sourceLocation,
            performing: { try JSONParser.parse(bytes, maximumDepth: maximumDepth) })
    case (let r, let s):
        Issue.record("read gave \(r), skip gave \(s) for \(text)", sourceLocation: sourceLocation)
    }
}

private let validTexts: [String] = [
    "null", "true", "false", "0", "-0", "1", "-1", "0.5", "-0.5e-3", "1E+2", "1e-400", "123456789012345678901234567890",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
    String(repeating: "9", count: 308), "-" + String(repeating: "9", count: 308), "1.7976931348623157e308",
    "\"\"", "\"a\"", #""\"\\\/\b\f\n\r\t""#, #""\u0000\u001f\u0041\u00e9\u2028\uFFFF""#, #""\ud83d\ude00""#,
    #""\ud800""#, #""\udc00""#, #""\ud800\u0041""#, #""\ud800\ud800""#, #""\udbff\udfff""#, #""\ud800\"""#,
    #""\ud800x\udc00""#, "\"blå 中文 😀 \u{7f}\"", "[]", "{}", " [ ] ", "\t{ }\r\n", "[1,[2,[3,{}]],\"x\"]",
    #"{"a":1,"b":[true,false,null],"c":{"d":"e"}}"#, #"{"a":1,"a":2}"#, #"{"\u0061":1,"a":2}"#, #"{"":""}"#,
    " \n\t1\r\n ", "[ 1 , 2 ]", #"{ "a" : { "b" : [ ] } }"#,
]

private let invalidTexts: [String] = [
    "", " ", "{", "}", "[", "]", "[1,]", "[,1]", "[1 2]", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{,}", "{1:2}",
    "{\"a\" 1}", "{\"a\":1 \"b\":2}", "01", "-01", "00", "1.", "1.e5", ".5", "-", "-a", "+1", "1e", "1e+", "1E-",
    "0x10", "1e400", "-1e400", "1" + String(repeating: "0", count: 400), "-1" + String(repeating: "0", count: 400),
    "1" + String(repeating: "0", count: 400) + ".5", "t", "tru", "trux", "truex", "f", "fals", "falsy", "n", "nul",
    "nulll", "NaN", "Infinity", "-Infinity", "'a'", "\"abc", "\"a\\", "\"a\u{1}\"", "\"\t\"", "\"\\x\"", "\"\\U0041\"",
    "\"\\u12\"", "\"\\u12\"\"", "\"\\u12G4\"", #""\ud800\u12""#, #""\ud800\uzzzz""#, #""\ud800\u""#, "{} x", "1 2",
    "[] ]", "\"a\" \"b\"", "nullx", "[true false]", "{\"a\":1}}", "\u{feff}{}", "[\"\u{0}\"]",
]

@Suite struct JSONReaderTests {
    @Test(arguments: validTexts)
    func skipAndRead_agree_onValidText(text: String) {
        #expect(throws: Never.self) { try JSONParser.parse(text) }
        expectAgreement(Array(text.utf8))
    }

    @Test(arguments: invalidTexts)
    func skipAndRead_agree_onInvalidText(text: String) {
        #expect(throws: JSONError.self) { try JSONParser.parse(text) }
        expectAgreement(Array(text.utf8))
    }

    @Test func skipAndRead_agree_onInvalidUTF8() {
        let inputs: [[UInt8]] = [
            [0x22, 0xFF, 0x22], [0x22, 0x80, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xC0, 0xAF, 0x22],
            [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE0, 0x80, 0x80, 0x22],
            [0x22, 0xF0, 0x80, 0x80, 0x80, 0x22], [0x22, 0xE2, 0x80], [0xFE], [0xC3, 0xA9], [0x5B, 0xFF, 0x5D],
            Array(#"{"a"#.utf8) + [0xFF] + Array(#"":1}"#.utf8), Array(#"{"a":1}"#.utf8) + [0x80],
        ]
        for input in inputs {
            #expect(throws: JSONError.self) { try JSONParser.parse(input) }
            expectAgreement(input)
        }
    }

    @Test func skipAndRead_agree_atEveryDepthLimit() {
        for limit in 0...4 {
            for nesting in 0...6 {
                let arrays = String(repeating: "[", count: nesting) + "1" + String(repeating: "]", count: nesting)
                let objects =
                    String(repeating: "{\"k\":", count: nesting) + "[]" + String(repeating: "}", count: nesting)
                let empties = String(repeating: "[", count: nesting) + String(repeating: "]", count: nesting)
                for text in [arrays, objects, empties, "[{}, [[]], {\"a\": {\"b\": []}}]"] {
                    expectAgreement(Array(text.utf8), maximumDepth: limit)
                }
            }
        }
    }

    @Test func depthLimit_isExact_forArraysAndObjects() {
        let arrays64 = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        let arrays65 = "[" + arrays64 + "]"
        let objects64 = String(repeating: "{\"a\":", count: 63) + "{}" + String(repeating: "}", count: 63)
        let objects65 = "{\"a\":" + objects64 + "}"
        #expect(skip(Array(arrays64.utf8)) == .success(0..<128))
        #expect(skip(Array(objects64.utf8)).map(\.count) == .success(objects64.utf8.count))
        #expect(skip(Array(arrays65.utf8)) == .failure(.tooDeep(limit: 64)))
        #expect(skip(Array(objects65.utf8)) == .failure(.tooDeep(limit: 64)))
        for text in [arrays64, arrays65, objects64, objects65] { expectAgreement(Array(text.utf8)) }
    }

    @Test func numbers_readExactly_andOutOfRangeFailsAtTheNumber() {
        #expect(read(Array("9223372036854775807".utf8)) == .success(.int(Int.max)))
        #expect(read(Array("-9223372036854775808".utf8)) == .success(.int(Int.min)))
        #expect(read(Array("9223372036854775808".utf8)) == .success(.double(9_223_372_036_854_775_808)))
        #expect(read(Array("-9223372036854775809".utf8)) == .success(.double(-0x1p63)))
        #expect(read(Array("1e2".utf8)) == .success(.double(100)))
        #expect(read(Array("-0".utf8)) == .success(.int(0)))
        #expect(read(Array("1e-400".utf8)) == .success(.double(0)))
        let outOfRange = JSONError.syntax(offset: 3, reason: "number out of range")
        for text in ["[1,1e400]", "[1,-1e309]", "[1," + String(repeating: "9", count: 310) + "]"] {
            #expect(read(Array(text.utf8)) == .failure(outOfRange))
            #expect(skip(Array(text.utf8)) == .failure(outOfRange))
        }
    }

    /// Long integers (the skip may take a shortcut for short ones) around
    /// where doubles overflow (1.8e308), with signs, fractions and exponents.
    @Test func longNumbers_nearTheDoubleLimit_skipAndReadAgree() {
        for digits in [18, 19, 20, 297, 298, 299, 300, 301, 307, 308, 309, 310, 311] {
            for lead in ["1", "9", "17976931348623157", "17976931348623159"] {
                let integer = String((lead + String(repeating: "0", count: digits)).prefix(digits))
                for text in [integer, "-" + integer, integer + ".5", integer + "e0", integer + "e-5", "0." + integer] {
                    expectAgreement(Array(text.utf8))
                    expectAgreement(Array("[\(text)]".utf8))
                }
            }
        }
        #expect(read(Array(("1" + String(repeating: "0", count: 308)).utf8)) == .success(.double(1e308)))
        #expect(
            skip(Array(("1" + String(repeating: "0", count: 309)).utf8))
                == .failure(.syntax(offset: 0, reason: "number out of range")))
    }

    @Test func skipValue_returnsTheValueRange_andSkipKeyTheKeyText() throws {
        let bytes = Array(#"  {"ab" : [1, "x"], "c\"d":null}  "#.utf8)
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) in
            var reader = JSONReader(buffer)
            #expect(try reader.beginObject())
            #expect(try reader.skipKey() == 4..<6)
            #expect(try reader.skipValue() == 10..<18)
            #expect(try reader.nextMember())
            #expect(try reader.skipKey() == 21..<25)
            #expect(try reader.skipValue() == 27..<31)
            #expect(try reader.nextMember() == false)
            #expect(reader.remainingDepth == reader.maximumDepth)
            try reader.finish()
        }
    }

    /// One special byte at every position of the first two 8-byte words of a
    /// long ASCII string (the words `scanPlain` checks at once), at several
    /// alignments of the string in the buffer.
    @Test func specialByte_atEveryWordPosition_isNeverSkipped() {
        let tail = String(repeating: "x", count: 24)
        for lead in 0..<3 {
            let prefix = String(repeating: " ", count: lead)
            let open = lead + 1  // offset of the string's first byte
            for k in 0..<16 {
                let head = String(repeating: "a", count: k)
                func text(_ special: [UInt8]) -> [UInt8] {
                    Array((prefix + "\"" + head).utf8) + special + Array((tail + "\"").utf8)
                }
                // A quote ends the string there: the rest is trailing garbage.
                let quoted = text([0x22])
                #expect(stringOutcome(quoted) == .success(StringRead(head, open + k + 1)))
                #expect(
                    skip(quoted)
                        == .failure(.syntax(offset: open + k + 1, reason: "unexpected character 'x' after the value")))
                expectAgreement(quoted)
                // A backslash starts an escape.
                #expect(stringOutcome(text([0x5C, 0x6E])).map(\.value) == .success(head + "\n" + tail))
                let badEscape = text([0x5C, 0x71])
                #expect(read(badEscape) == .failure(.syntax(offset: open + k + 1, reason: "invalid escape")))
                expectAgreement(badEscape)
                // Control bytes must be escaped.
                for control: UInt8 in [0x00, 0x01, 0x09, 0x0A, 0x0D, 0x1F] {
                    let bytes = text([control])
                    let error = JSONError.syntax(
                        offset: open + k, reason: "control character in a string must be escaped")
                    #expect(read(bytes) == .failure(error))
                    expectAgreement(bytes)
                }
                // Bytes ≥ 0x80 must be valid UTF-8.
                for invalid: [UInt8] in [[0x80], [0xBF], [0xC3], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF8], [0xFF]] {
                    let bytes = text(invalid)
                    #expect(read(bytes) == .failure(.invalidUTF8(offset: open + k)))
                    expectAgreement(bytes)
                }
                for valid in ["é", "\u{2028}", "😀", "\u{10FFFF}"] {
                    #expect(read(text(Array(valid.utf8))) == .success(.string(head + valid + tail)))
                    expectAgreement(text(Array(valid.utf8)))
                }
                // Plain bytes next to the special ones pass.
                for plain: UInt8 in [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7E, 0x7F] {
                    let expected = head + String(Unicode.Scalar(plain)) + tail
                    #expect(read(text([plain])) == .success(.string(expected)))
                }
            }
        }
    }

    /// Random strings, mostly plain ASCII with a few special bytes, checked
    /// against a byte-at-a-time reference.
    @Test func randomStrings_matchAByteAtATimeReference() {
        var random = SplitMix(seed: 0x5EED)
        let plain: [[UInt8]] = [[0x61], [0x5A], [0x20], [0x7E], [0x7F], [0x21], [0x23], [0x5B], [0x5D], [0x30]]
        let special: [[UInt8]] = [
            [0x22], [0x5C, 0x6E], [0x5C, 0x22], [0x5C, 0x5C], [0x5C, 0x71], [0x5C], [0x00], [0x01], [0x1F], [0x80],
            [0xBF], [0xFF], [0xC3, 0xA9], [0xC3],
        ]
        for _ in 0..<3_000 {
            var bytes: [UInt8] = [0x22]
            for _ in 0..<random.below(48) {
                bytes += random.below(12) == 0 ? special[random.below(special.count)] : plain[random.below(plain.count)]
            }
            if random.below(4) != 0 { bytes.append(0x22) }
            let expected = referenceString(bytes)
            #expect(stringOutcome(bytes) == expected.map { StringRead(String(decoding: $0.0, as: UTF8.self), $0.1) })
            let skipped = bytes.withUnsafeBufferPointer { buffer -> Result<Int, JSONError> in
                var reader = JSONReader(buffer)
                do throws(JSONError) {
                    try reader.skipString()
                    return .success(reader.offset)
                } catch {
                    return .failure(error)
                }
            }
            #expect(skipped == expected.map { $0.1 })
            expectAgreement(bytes)
        }
    }
}

/// What `readString` gave: the string and the offset after its closing quote.
private struct StringRead: Equatable {
    var value: String
    var end: Int
    init(_ value: String, _ end: Int) {
        self.value = value
        self.end = end
    }
}

/// `readString` at the start of `bytes`.
private func stringOutcome(_ bytes: [UInt8]) -> Result<StringRead, JSONError> {
    bytes.withUnsafeBufferPointer { buffer in
        var reader = JSONReader(buffer)
        do throws(JSONError) {
            let s = try reader.readString()
            return .success(StringRead(s, reader.offset))
        } catch {
            return .failure(error)
        }
    }
}

/// A byte-at-a-time reader of a string (at the opening quote) without `\u`
/// escapes and with no lead byte above 0xDF: its bytes and the offset after
/// the closing quote, or the error `JSONReader` must give.
private func referenceString(_ bytes: [UInt8]) -> Result<([UInt8], Int), JSONError> {
    var out: [UInt8] = []
    var i = 1
    let n = bytes.count
    while i < n {
        let b = bytes[i]
        switch b {
        case 0x22:
            return .success((out, i + 1))
        case 0x5C:
            guard i + 1 < n else { return .failure(.syntax(offset: n, reason: "unterminated string")) }
            switch bytes[i + 1] {
            case 0x6E: out.append(0x0A)
            case 0x22, 0x5C: out.append(bytes[i + 1])
            default: return .failure(.syntax(offset: i + 1, reason: "invalid escape"))
            }
            i += 2
        case 0x00..<0x20:
            return .failure(.syntax(offset: i, reason: "control character in a string must be escaped"))
        case 0x20..<0x80:
            out.append(b)
            i += 1
        case 0xC2...0xDF where i + 1 < n && bytes[i + 1] & 0xC0 == 0x80:
            out += [b, bytes[i + 1]]
            i += 2
        default:
            return .failure(.invalidUTF8(offset: i))
        }
    }
    return .failure(.syntax(offset: n, reason: "unterminated string"))
}

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
