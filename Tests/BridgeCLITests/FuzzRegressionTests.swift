import BridgeJSON
import BridgeSystem
import SharedSuite
import Testing

@testable import BridgeCLI

/// Inputs of the fuzz targets' bugs (Fuzz/, scripts/fuzz/run.sh) that reach the CLI.
@Suite struct FuzzRegressionTests {
    /// The sub-millisecond date found by FuzzSuiteFile, through `write -date`:
    /// what `write` stores must be what `read` gives back.
    @Test func writeDate_subMillisecondFraction_readsBackTheSame() throws {
        let value = try ValueParser.parse(["-date", "2026-11-29T18:57:02.1234567Z"])
        #expect(value == .date(WallTime(seconds: 1_795_978_622, nanoseconds: 123_000_000)))
        #expect(try SuiteValue(json: value.json) == value)
        #expect(try Suite.decode(Suite.encode(["k": value]), path: "suite.json") == ["k": value])
    }
}
