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
}
