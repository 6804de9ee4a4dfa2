import Testing

@testable import BridgeJSON

/// Inputs found by the fuzz targets (Fuzz/, scripts/fuzz/run.sh), kept as regressions.
@Suite struct FuzzRegressionTests {
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
