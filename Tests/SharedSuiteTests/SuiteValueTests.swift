import BridgeJSON
import BridgeSystem
import Foundation
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
}
