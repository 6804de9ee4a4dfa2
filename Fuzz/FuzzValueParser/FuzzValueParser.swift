// Fuzz target: the CLI's `write` operand parser, `ValueParser.parse`.
//
// Input: operands separated by NUL bytes (as argv would hold them), e.g.
// `-dict\0k\0v`. Checks: a refusal is a usage (64) or data (65) error; an
// accepted value survives the suite's JSON form, and a whole suite file,
// unchanged (what `write` stores is what `read` gives back).
import BridgeCLI
import BridgeJSON
import BridgeSystem
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
    if !condition { fatalError("FuzzValueParser: \(message())") }
}

/// The entry point. With `-DFUZZING` (scripts/fuzz/run.sh builds with it and
/// `-sanitize=fuzzer,address`) it hands over to libFuzzer's driver, which takes
/// libFuzzer's usual arguments; SwiftPM names every executable's entry point
/// itself, so libFuzzer's own `main` cannot be used. In a normal build it runs
/// `fuzzOneInput` over the files, and the files in the folders, named on the
/// command line: a replay of a corpus or a crash without the fuzzer.
@main enum FuzzMain {
    static func main() {
        #if FUZZING
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
        #else
            var count = 0
            for path in CommandLine.arguments.dropFirst() { count += replay(path) }
            print("FuzzValueParser: replayed \(count) inputs")
        #endif
    }

    static func replay(_ path: String) -> Int {
        guard let info = try? FileSystem.status(path, followLinks: true) else { fatalError("no such input: \(path)") }
        if FileSystem.isDirectory(info) {
            let names = (try? FileSystem.listDirectory(path)) ?? []
            return names.sorted().reduce(0) { $0 + replay(path + "/" + $1) }
        }
        guard let bytes = try? FileSystem.readFile(path) else { fatalError("cannot read \(path)") }
        _ = bytes.withUnsafeBufferPointer { fuzzOneInput($0.baseAddress, $0.count) }
        return 1
    }
}

#if FUZZING
    /// libFuzzer's `int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t))`.
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<Int32>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32
#endif
