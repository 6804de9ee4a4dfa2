import BridgeJSON
import BridgeSystem
import Testing

@testable import SharedSuite

@Suite struct SuiteValueTests {
    static let samples: [SuiteValue] = [
        .bool(true), .int(-42), .double(1.5), .double(3), .string("blå \u{2028}"), .data([0, 1, 2, 255]),
        .date(WallTime(seconds: 1_764_442_622, nanoseconds: 123_000_000)), .array([.int(1), .string("x")]),
        .dictionary(["a": .bool(false), "nested": .dictionary(["d": .data([9])])]),
        .dictionary(["$data": .string("not a tag")]),
    ]

    @Test(arguments: samples)
    func json_roundTrip_keepsTypeAndValue(value: SuiteValue) throws {
        let text = JSONWriter.bytes(value.json)
        #expect(try SuiteValue(json: JSONParser.parse(text)) == value)
    }

    @Test func json_dataAndDate_useTags() {
        #expect(SuiteValue.data([1, 2]).json == ["$data": "AQI="])
        #expect(SuiteValue.date(WallTime(seconds: 0)).json == ["$date": "1970-01-01T00:00:00.000Z"])
    }

    @Test func json_dictionaryThatLooksLikeATag_isWrapped() {
        #expect(SuiteValue.dictionary(["$date": .string("x")]).json == ["$dict": ["$date": "x"]])
    }

    @Test func json_nullAndBadTags_areRefused() {
        #expect(throws: SuiteError.self) { try SuiteValue(json: nil) }
        #expect(throws: SuiteError.self) { try SuiteValue(json: ["$date": "yesterday"]) }
        #expect(throws: SuiteError.self) { try SuiteValue(json: ["$data": "!!"]) }
        #expect(throws: SuiteError.self) { try SuiteValue(json: ["$nope": 1]) }
    }

    @Test func base64_knownVectors() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE="]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64.decode("Zm9") == nil)
        #expect(Base64.decode("Zm9$") == nil)
    }

    @Test func wallTime_iso8601_roundTripsAndParsesOffsets() {
        let t = WallTime(seconds: 1_764_442_622, nanoseconds: 5_000_000)
        #expect(WallTime(iso8601: t.iso8601) == t)
        #expect(WallTime(iso8601: "2026-11-29")?.iso8601 == "2026-11-29T00:00:00.000Z")
        #expect(WallTime(iso8601: "2026-11-29T20:00:00+02:00")?.iso8601 == "2026-11-29T18:00:00.000Z")
        #expect(WallTime(iso8601: "2026-13-01") == nil)
        #expect(WallTime(iso8601: "2026-11-29T25:00:00Z") == nil)
        #expect(WallTime(iso8601: "yesterday") == nil)
    }
}
