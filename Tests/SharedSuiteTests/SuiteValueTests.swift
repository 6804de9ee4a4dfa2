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

    /// Issue 13: a date the four-digit format cannot write back is refused at
    /// input, so no suite can hold one.
    @Test func wallTime_outsideYears1To9999_isRefused() {
        #expect(WallTime(iso8601: "9999-12-31T23:59:60Z") == nil)  // leap second rolls into year 10000
        #expect(WallTime(iso8601: "9999-12-31T23:30:00-01:00") == nil)
        #expect(WallTime(iso8601: "0001-01-01T00:30:00+01:00") == nil)  // offset rolls into year 0
        #expect(WallTime(iso8601: "0000-06-01") == nil)
        #expect(WallTime(iso8601: "2026-11-29T12:00:00+24:00") == nil)
        #expect(WallTime(iso8601: "2026-11-29T12:00:00+01:60") == nil)
        for edge in ["0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z"] {
            #expect(WallTime(iso8601: edge)?.iso8601 == edge)
        }
        #expect(WallTime.iso8601Range.lowerBound.iso8601 == "0001-01-01T00:00:00.000Z")
        #expect(WallTime.iso8601Range.upperBound.iso8601 == "9999-12-31T23:59:59.999Z")
    }

    /// The date arithmetic replaced `timegm`/`gmtime_r` (which read time-zone
    /// files at start-up); it must agree with them on every kind of date.
    @Test func wallTime_agreesWithTheCLibrary() {
        var seconds: [Int64] = [0, -1, 86_399, 86_400, 951_782_400, 951_868_800, 4_107_542_399, 253_402_300_799]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {  // 1900…2100, deterministic
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            seconds.append(Int64(state >> 33) % 6_311_433_600 - 2_208_988_800)
        }
        for s in seconds {
            var t = time_t(s)
            var parts = tm()
            gmtime_r(&t, &parts)
            let expected =
                "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
                + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).250Z"
            let time = WallTime(seconds: s, nanoseconds: 250_000_000)
            #expect(time.iso8601 == expected)
            #expect(WallTime(iso8601: expected) == time)
        }
        // Days past the month's end count on, as timegm did.
        #expect(WallTime(iso8601: "2026-02-31")?.iso8601 == "2026-03-03T00:00:00.000Z")
        #expect(WallTime(iso8601: "2024-02-29T23:59:60Z")?.iso8601 == "2024-03-01T00:00:00.000Z")
    }

    private func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
}
