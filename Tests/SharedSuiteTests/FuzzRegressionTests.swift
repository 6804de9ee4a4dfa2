import BridgeSystem
import Testing

@testable import SharedSuite

/// Inputs found by the fuzz targets (Fuzz/, scripts/fuzz/run.sh), kept as regressions.
@Suite struct FuzzRegressionTests {
    /// FuzzSuiteFile: a `$date` with more than three fraction digits
    /// (`1969-12-31T23:59:59.9992Z`) decoded to 999,200,000 ns, but `iso8601`
    /// writes milliseconds, so the next read gave 999,000,000 ns: a suite changed
    /// by merely being rewritten. Dates now read at millisecond precision, as
    /// they are written (docs/SUITE.md: "Dates keep millisecond precision").
    @Test func subMillisecondDate_decodesToWhatIsWritten() throws {
        let input = #"""
            {"formatVersion":1,"values":{"a":{"$date":"2026-11-29"},"b":{"$date":"2026-11-29T18:57:02+01:30"},
            "c":{"$date":"1969-12-31T23:59:59.9992Z"},"d":{"$date":"2026-11-29T18:57:02.123456789Z"}}}
            """#
        let values = try Suite.decode(Array(input.utf8), path: "suite.json")
        #expect(values["c"] == .date(WallTime(seconds: -1, nanoseconds: 999_000_000)))
        #expect(values["d"] == .date(WallTime(seconds: 1_795_978_622, nanoseconds: 123_000_000)))
        let encoded = Suite.encode(values)
        #expect(try Suite.decode(encoded, path: "suite.json") == values)
    }

    @Test func wallTime_fractionBeyondMilliseconds_isTruncated() {
        #expect(WallTime(iso8601: "2026-11-29T18:57:02.1239Z")?.nanoseconds == 123_000_000)
        #expect(WallTime(iso8601: "2026-11-29T18:57:02.5Z")?.nanoseconds == 500_000_000)
        #expect(WallTime(iso8601: "2026-11-29T18:57:02.0009Z")?.nanoseconds == 0)
    }
}
