// Fuzz target: JSONParser on arbitrary bytes.
//
// Checks: a refusal names an offset inside the input; an accepted value
// written by JSONWriter (compact and pretty) parses back to an equal value,
// and writing that value again gives the same bytes.
import BridgeJSON
import BridgeSystem

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let value: JSONValue
    do throws(JSONError) {
        value = try JSONParser.parse(input)
    } catch {
        switch error {
        case .invalidUTF8(let offset), .syntax(let offset, _):
            check(offset >= 0 && offset <= input.count, "error offset \(offset) outside 0...\(input.count)")
        case .tooDeep(let limit): check(limit == JSONParser.defaultMaximumDepth, "tooDeep limit \(limit)")
        }
        return 0
    }
    let compact = JSONWriter.bytes(value)
    check(reparse(compact) == value, "compact output does not parse back to the same value")
    check(JSONWriter.bytes(reparse(compact)) == compact, "writing the re-parsed value changes the bytes")
    let pretty = Array(JSONWriter.prettyString(value).utf8)
    check(reparse(pretty) == value, "pretty output does not parse back to the same value")
    return 0
}

private func reparse(_ bytes: [UInt8]) -> JSONValue {
    do throws(JSONError) {
        return try JSONParser.parse(bytes)
    } catch {
        fatalError("FuzzJSONParser: writer output is not JSON (\(error)): \(String(decoding: bytes, as: UTF8.self))")
    }
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("FuzzJSONParser: \(message())") }
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
            print("FuzzJSONParser: replayed \(count) inputs")
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
