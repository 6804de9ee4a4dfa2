// Fuzz target: the suite file reader, `Suite.decode(bytes, path:)`, on arbitrary bytes.
//
// Checks: a refusal is `.corrupt` or `.newerFormat` naming the path (never an
// I/O error); accepted values encode to a document that decodes to equal
// values, and encoding is then a fixed point.
import BridgeSystem
import SharedSuite

private let path = "/fuzz/suite.json"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let values: [String: SuiteValue]
    do throws(SuiteError) {
        values = try Suite.decode(input, path: path)
    } catch {
        switch error {
        case .corrupt(let p, _), .newerFormat(let p, _, _): check(p == path, "error names \(p), not \(path)")
        default: check(false, "decode failed with an unexpected error: \(error)")
        }
        return 0
    }
    let encoded = Suite.encode(values)
    let again: [String: SuiteValue]
    do throws(SuiteError) {
        again = try Suite.decode(encoded, path: path)
    } catch {
        fatalError("FuzzSuiteFile: Suite.encode output does not decode (\(error)):\n\(text(encoded))")
    }
    check(again == values, "decode(encode(values)) != values:\n\(values)\n\(again)")
    check(Suite.encode(again) == encoded, "encoding is not a fixed point")
    return 0
}

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("FuzzSuiteFile: \(message())") }
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
            print("FuzzSuiteFile: replayed \(count) inputs")
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
