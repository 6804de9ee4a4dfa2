import Foundation
import Testing

@testable import BridgeSystem

@Suite struct WallTimeTests {
    /// Against Python's email.utils.formatdate for the same instants.
    @Test(arguments: [
        (Int64(0), "Thu, 01 Jan 1970 00:00:00 +0000"), (1_796_110_680, "Tue, 01 Dec 2026 07:38:00 +0000"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 +0000"), (-86_400, "Wed, 31 Dec 1969 00:00:00 +0000"),
    ])
    func rfc2822_writesDebianChangelogDates(seconds: Int64, expected: String) {
        #expect(WallTime(seconds: seconds).rfc2822 == expected)
    }

    @Test(arguments: [
        ("2026-11-29T18:57:02.123Z", WallTime(seconds: 1_795_978_622, nanoseconds: 123_000_000)),
        ("2026-11-29T20:27:02+01:30", WallTime(seconds: 1_795_978_622)),
        ("2026-11-29 18:57:02Z", WallTime(seconds: 1_795_978_622)),
        ("2026-11-29", WallTime(seconds: 1_795_910_400)), ("1969-12-31T23:59:59Z", WallTime(seconds: -1)),
        ("0001-01-01T00:00:00Z", WallTime.iso8601Range.lowerBound),
    ])
    func iso8601_parsesOffsetsAndDates(text: String, expected: WallTime) {
        #expect(WallTime(iso8601: text) == expected)
    }

    /// What four digits and milliseconds can write back: anything else would change when the
    /// suite is rewritten.
    @Test(arguments: [
        "2026-11-29T18:57:02", "2026-13-01", "2026-11-29T24:00:00Z", "2026-11-29T18:57:02.Z", "26-11-29",
        "2026-11-29T18:57:02Zjunk", "9999-12-31T23:59:59-01:00", "2026-11-29T18:57:02+0100",
    ])
    func iso8601_refusesWhatItCouldNotWriteBack(text: String) {
        #expect(WallTime(iso8601: text) == nil)
    }

    /// A day the month does not have was counted on into the next month (2026-02-30 stored as
    /// March 2, without a word): refused; the last day of each month, and February 29 of a leap
    /// year (2000, not 1900), are read.
    @Test func iso8601_refusesADayTheMonthDoesNotHave() {
        for text in [
            "2026-02-29", "2026-02-30", "2026-04-31", "1900-02-29", "2026-06-31T00:00:00Z", "2026-01-00",
            "2026-06-15T12:30:60Z",  // second 60 of a minute that is not a day's last: no leap second
        ] {
            #expect(WallTime(iso8601: text) == nil, "\(text)")
        }
        for text in ["2024-02-29", "2000-02-29", "2026-02-28", "2026-04-30", "2026-12-31", "2026-01-31T23:59:59Z"] {
            #expect(WallTime(iso8601: text)?.iso8601.hasPrefix(String(text.prefix(10))) == true, "\(text)")
        }
    }

    @Test func iso8601_writesWhatItReads_atBothEndsOfTheRange() {
        for time in [
            WallTime.iso8601Range.lowerBound, WallTime.iso8601Range.upperBound, WallTime(seconds: 0),
            WallTime(seconds: 951_782_400, nanoseconds: 7_000_000),
        ] {
            #expect(WallTime(iso8601: time.iso8601) == time)
        }
        #expect(WallTime(seconds: 0, nanoseconds: 7_000_000).iso8601 == "1970-01-01T00:00:00.007Z")
        #expect(WallTime(seconds: 1, nanoseconds: 999_999_999).milliseconds == 1_999)
    }

    @Test func daysAndCivil_areInverses_acrossLeapYearsAndBefore1970() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let (y, m, d) = WallTime.civil(fromDays: days)
            #expect(WallTime.days(year: y, month: m, day: d) == days)
        }
        #expect(WallTime.days(year: 2000, month: 3, day: 1) - WallTime.days(year: 2000, month: 2, day: 28) == 2)
        #expect(WallTime.days(year: 1900, month: 3, day: 1) - WallTime.days(year: 1900, month: 2, day: 28) == 1)
    }

    @Test func order_andNow() {
        #expect(WallTime(seconds: 1, nanoseconds: 5) < WallTime(seconds: 1, nanoseconds: 6))
        #expect(WallTime(seconds: 0, nanoseconds: 999) < WallTime(seconds: 1))
        #expect(WallTime.now().seconds > 1_700_000_000)
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

    /// A date the four-digit format cannot write back is refused at input, so no
    /// suite can hold one (rewriting the suite would change or lose it).
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
        // A leap second counts on, as timegm does (a day past the month's end is refused: above).
        #expect(WallTime(iso8601: "2024-02-29T23:59:60Z")?.iso8601 == "2024-03-01T00:00:00.000Z")
    }

    private func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// Found by FuzzSuiteFile: a fraction finer than milliseconds was kept, but `iso8601`
    /// writes milliseconds, so rewriting a suite changed its date.
    @Test func wallTime_fractionBeyondMilliseconds_isTruncated() {
        #expect(WallTime(iso8601: "2026-11-29T18:57:02.1239Z")?.nanoseconds == 123_000_000)
        #expect(WallTime(iso8601: "2026-11-29T18:57:02.5Z")?.nanoseconds == 500_000_000)
        #expect(WallTime(iso8601: "2026-11-29T18:57:02.0009Z")?.nanoseconds == 0)
    }
}
