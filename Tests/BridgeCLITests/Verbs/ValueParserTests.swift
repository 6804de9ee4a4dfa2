import BridgeSystem
import SharedSuite
import Testing

@testable import BridgeCLI

@Suite struct ValueParserTests {
    @Test(arguments: [
        (["hello"], SuiteValue.string("hello")),
        (["-string", "-bool"], .string("-bool")),
        (["-bool", "YES"], .bool(true)),
        (["-bool", "0"], .bool(false)),
        (["-int", "-12"], .int(-12)),
        (["-float", "2.5"], .double(2.5)),
        (["-date", "2026-11-29T18:57:02Z"], .date(WallTime(seconds: 1_795_978_622))),
        (["-data", "AAE="], .data([0, 1])),
        (["-array", "a", "b"], .array([.string("a"), .string("b")])),
        (["-array"], .array([])),
        (["-dict", "blue", "blauw"], .dictionary(["blue": .string("blauw")])),
        (
            ["-json", "{\"a\":[1,true],\"d\":{\"$date\":\"1970-01-01\"}}"],
            .dictionary(["a": .array([.int(1), .bool(true)]), "d": .date(WallTime(seconds: 0))])
        ),
        (["-5"], .string("-5")),
    ])
    func parse_typedValues(operands: [String], expected: SuiteValue) throws {
        #expect(try ValueParser.parse(operands) == expected)
    }

    @Test func parse_zerosAndTinyNumbers_areKeptAsWritten() throws {
        for zero in ["0", "-0.0", "0e-400", "0.000", "0x0p3"] {
            #expect(try ValueParser.parse(["-float", zero]) == .double(0), "\(zero)")
        }
        #expect(try ValueParser.parse(["-float", "5e-324"]) == .double(5e-324))
    }

    @Test(arguments: [
        (["-bool", "maybe"], CLIError.Kind.data), (["-int", "1.5"], .data), (["-float", "inf"], .data),
        (["-date", "soon"], .data), (["-data", "@@"], .data), (["-json", "{"], .data), (["-json", "null"], .data),
        ([], .usage), (["-int"], .usage), (["-int", "1", "2"], .usage), (["-dict", "k"], .usage),
        (["a", "b"], .usage), (["-nope", "x"], .usage),
        // What would be stored otherwise than written, as -json refuses it: a number that would be 0,
        // a word given twice (the first replacement lost).
        (["-float", "1e-400"], .data), (["-float", "0x1p-2000"], .data), (["-dict", "blue", "a", "blue", "b"], .data),
    ])
    func parse_badValues_giveTheRightExitKind(operands: [String], kind: CLIError.Kind) {
        #expect {
            try ValueParser.parse(operands)
        } throws: { error in
            (error as? CLIError)?.kind == kind
        }
    }
}
