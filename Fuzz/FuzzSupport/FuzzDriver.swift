// The entry point every fuzz target shares (Fuzz/README.md).
import BridgeSystem

/// libFuzzer's callback: one input, returns 0.
public typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

/// Runs a fuzz target. With `-DFUZZING` (scripts/fuzz/run.sh builds every
/// module with it and `-sanitize=fuzzer,address`) it hands over to libFuzzer's
/// driver, which takes libFuzzer's usual arguments: SwiftPM names every
/// executable's entry point itself, so libFuzzer's own `main` cannot be used.
/// In a normal build it runs `callback` over the files, and the files in the
/// folders, named on the command line: a replay of a corpus or a crash
/// without the fuzzer.
public enum FuzzDriver {
    public static func run(_ name: String, _ callback: FuzzCallback) -> Never {
        #if FUZZING
            var argc = CommandLine.argc
            var argv = CommandLine.unsafeArgv
            Platform.exit(runFuzzerDriver(&argc, &argv, callback))
        #else
            var count = 0
            for path in CommandLine.arguments.dropFirst() { count += replay(path, callback) }
            print("\(name): replayed \(count) inputs")
            Platform.exit(0)
        #endif
    }

    static func replay(_ path: String, _ callback: FuzzCallback) -> Int {
        guard let info = try? FileSystem.status(path, followLinks: true) else { fatalError("no such input: \(path)") }
        if info.isDirectory {
            let names = (try? FileSystem.listDirectory(path)) ?? []
            return names.sorted().reduce(0) { $0 + replay(path + "/" + $1, callback) }
        }
        guard let bytes = try? FileSystem.readFile(path) else { fatalError("cannot read \(path)") }
        _ = bytes.withUnsafeBufferPointer { callback($0.baseAddress, $0.count) }
        return 1
    }

    /// Stops the run with `message` (libFuzzer then keeps the input) when `condition` is false.
    public static func check(_ target: String, _ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("\(target): \(message())") }
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
