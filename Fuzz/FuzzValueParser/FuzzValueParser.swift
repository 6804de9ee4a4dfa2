// Fuzz target: the CLI's `write` operand parser, `ValueParser.parse`.
//
// Input: operands separated by NUL bytes (as argv would hold them), e.g.
// `-dict\0k\0v`. Checks: a refusal is a usage (64) or data (65) error; an
// accepted value survives the suite's JSON form, and a whole suite file,
// unchanged (what `write` stores is what `read` gives back).
import BridgeCLI
import BridgeJSON
import BridgeSystem
import FuzzSupport
import SharedSuite

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let operands = input.split(separator: 0, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
    }
    let value: SuiteValue
    do throws(CLIError) {
        value = try ValueParser.parse(input.isEmpty ? [] : operands)
    } catch {
        check(error.exitStatus == 64 || error.exitStatus == 65, "exit status \(error.exitStatus): \(error)")
        return 0
    }
    let json = value.json
    do throws(SuiteError) {
        let back = try SuiteValue(json: json)
        check(back == value, "the JSON form reads back differently:\n\(value)\n\(back)\n\(JSONWriter.string(json))")
        let file = Suite.encode(["key": value])
        let stored = try Suite.decode(file, path: "/fuzz/suite.json")
        check(stored == ["key": value], "the suite file reads back differently:\n\(value)\n\(stored)")
    } catch {
        check(false, "the parsed value cannot be stored and read: \(error)\n\(value)")
    }
    return 0
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    FuzzDriver.check("FuzzValueParser", condition, message())
}

@main enum FuzzMain {
    static func main() { FuzzDriver.run("FuzzValueParser", fuzzOneInput) }
}
