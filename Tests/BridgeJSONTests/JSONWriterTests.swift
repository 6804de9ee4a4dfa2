import Testing

@testable import BridgeJSON

@Suite struct JSONWriterTests {
    @Test(arguments: [0, 7, -1, 10, -10, 42, 1_000_000, Int.max, Int.min, Int.min + 1])
    func write_integersAsStringSpellsThem(value: Int) {
        #expect(JSONWriter.string(.int(value)) == String(value))
    }

    @Test func write_sortsKeysAndIsCompact() {
        #expect(JSONWriter.string(["b": 1, "a": [true, nil]]) == #"{"a":[true,null],"b":1}"#)
    }

    @Test func write_escapesOnlyWhatJSONNeeds() {
        #expect(
            JSONWriter.string(.string("q\"b\\n\n\u{1}\u{1f}/é\u{2028}")) == "\"q\\\"b\\\\n\\n\\u0001\\u001f/é\u{2028}\""
        )
    }

    @Test func write_doubleKeepsAFraction() {
        #expect(JSONWriter.string(.double(2)) == "2.0")
        #expect(JSONWriter.string(.double(0.1)) == "0.1")
        #expect(JSONWriter.string(.double(.infinity)) == "null")
    }

    @Test(arguments: ["", "plain", "😀👍🏽", "\u{2028}\u{2029}", "a\u{0}b", "\"\\\u{7f}", "中文 blå naïve"])
    func roundTrip_anyString_isExact(text: String) throws {
        let written = JSONWriter.bytes(["s": .string(text)])
        #expect(try JSONParser.parse(written)["s"] == .string(text))
    }

    @Test func roundTrip_nestedValue_isEqual() throws {
        let value: JSONValue = ["a": [1, 2.5, "x", ["y": nil]], "b": false, "c": -9_007_199_254_740_993]
        #expect(try JSONParser.parse(JSONWriter.bytes(value)) == value)
        #expect(try JSONParser.parse(JSONWriter.prettyString(value)) == value)
    }

    /// Files are written pretty: two-space indentation, empty containers kept short, and a
    /// final newline so the file is a text file.
    @Test func prettyBytes_indentsByTwo_andEndsWithANewline() {
        let value: JSONValue = ["b": [1, []], "a": [:]]
        #expect(
            String(decoding: JSONWriter.prettyBytes(value), as: UTF8.self)
                == "{\n  \"a\": {},\n  \"b\": [\n    1,\n    []\n  ]\n}\n")
        #expect(JSONWriter.prettyString(value) + "\n" == String(decoding: JSONWriter.prettyBytes(value), as: UTF8.self))
    }

    /// More than sixteen members take the other sorting path; the order is the same byte order.
    @Test func write_largeObjects_sortByUTF8Bytes_too() {
        var members: [String: JSONValue] = [:]
        for i in 0..<40 { members["k\(i)"] = .int(i) }
        members["e\u{301}z"] = 1  // by bytes before "é1"; by String's `<` after it
        members["é1"] = 2
        let keys = members.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        let expected =
            "{" + keys.map { "\"\($0)\":\(JSONWriter.string(members[$0] ?? .null))" }.joined(separator: ",") + "}"
        #expect(JSONWriter.string(.object(members)) == expected)
        #expect(JSONWriter.utf8Precedes("e\u{301}", "é") && !JSONWriter.utf8Precedes("é", "e\u{301}"))
    }

    // Found by the fuzz targets (Fuzz/, scripts/fuzz/run.sh), kept as regressions.

    /// FuzzJSONParser, `{"a":1,"a":2,"é0":1,"e\u0301":2}`: writing the same value
    /// twice gave different bytes. The writer sorted keys with String's `<`, which
    /// is not a total order when NFC and NFD text mix: neither "é0" (NFC) nor
    /// "e\u{301}" (NFD "é") is less than the other, yet they differ, so the order
    /// followed the dictionary's per-process hash order. Keys are now sorted by
    /// their UTF-8 bytes. Dictionaries of several capacities iterate in different
    /// orders, so without the fix some of these come out differently.
    @Test func mixedNormalizationKeys_areWrittenInOneOrder() throws {
        let keys = ["é0", "e\u{301}", "a", "\u{e9}1", "e\u{301}z"]
        let expected = #"{"a":3,"e\#u{301}":2,"e\#u{301}z":5,"é0":1,"é1":4}"#
        for capacity in [0, 5, 16, 40, 100, 1000] {
            for order in [keys, keys.reversed()] {
                var members = [String: JSONValue](minimumCapacity: capacity)
                for key in order { members[key] = .int(keys.firstIndex(of: key).map { $0 + 1 } ?? 0) }
                let bytes = JSONWriter.bytes(.object(members))
                #expect(String(decoding: bytes, as: UTF8.self) == expected)
                #expect(try JSONParser.parse(bytes) == .object(members))
            }
        }
    }

    /// The crash input itself: parse, write, parse, write gives the same bytes.
    @Test func fuzzInput_nfcAndNFDKeys_writeIsAFixedPoint() throws {
        let input: [UInt8] =
            Array(#"{"a":1,"a":2,""#.utf8) + [0xC3, 0xA9, 0x30] + Array(#"":1,"e"#.utf8)
            + [0xCC, 0x81] + Array(#"":2}"#.utf8)
        let value = try JSONParser.parse(input)
        let once = JSONWriter.bytes(value)
        #expect(JSONWriter.bytes(try JSONParser.parse(once)) == once)
    }
}
