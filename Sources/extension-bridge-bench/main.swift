// In-process micro-benchmarks of the libraries (suite reads and parses),
// run by scripts/bench. Not installed.
//
//   extension-bridge-bench suite CONTAINER ROUNDS
//
// CONTAINER/suite.json must exist. Prints one JSON object (nanoseconds):
//   unchanged_ns   Suite.snapshot() and one typed read when the file has not changed (one stat)
//   changed_ns     the same right after the file was replaced: stat, read, check the
//                  whole file, decode the one value read (what the host does)
//   changed_all_ns the same, then decoding every value (what the CLI's `list` does)
//   readfile_ns    Suite.readFile() (read + check, no cache)
//   decode_ns      Suite.decode(bytes) alone (one pass, every value built)
//   stat_ns        a bare stat(2) of the same path, for comparison
// Each figure is the median of ROUNDS batches.
import BridgeJSON
import BridgeSystem
import SharedSuite

func now() -> Int64 { MonotonicClock.system.nanoseconds() }

func median(_ xs: [Int64]) -> Int64 { xs.sorted()[xs.count / 2] }

/// Median over `rounds` batches of `perBatch` calls, in ns per call.
func measure(rounds: Int, perBatch: Int, _ body: () throws -> Void) rethrows -> Int64 {
    var samples: [Int64] = []
    for _ in 0..<rounds {
        let t0 = now()
        for _ in 0..<perBatch { try body() }
        samples.append((now() - t0) / Int64(perBatch))
    }
    return median(samples)
}

func fail(_ text: String) -> Never {
    try? FileDescriptor.standardError.writeAll(Array("extension-bridge-bench: \(text)\n".utf8))
    Platform.exit(1)
}

let args = CommandLine.arguments
guard args.count == 4, args[1] == "suite", let rounds = Int(args[3]), rounds > 0 else {
    fail("usage: extension-bridge-bench suite CONTAINER ROUNDS (run it through scripts/bench)")
}
let container = GroupContainer(path: args[2])
let suite = Suite(container: container)
let path = container.suitePath
let original: [UInt8]
do { original = try FileSystem.readFile(path) } catch { fail("cannot read \(path): \(error)") }
// A second version of the file: same keys, one value changed, so a re-read parses the same amount.
var variant = original
if let i = variant.lastIndex(of: UInt8(ascii: "}")) { variant.insert(UInt8(ascii: " "), at: i) }

do {
    let first = try suite.snapshot()
    let keys = first.values.count
    // A key the host-like read asks for: the first in byte order.
    let probe = first.keys.min() ?? ""

    var sink = 0
    let statNs = measure(rounds: rounds, perBatch: 1000) {
        sink &+= (try? FileSystem.status(path, followLinks: true))?.size == nil ? 0 : 1
    }
    let unchangedNs = try measure(rounds: rounds, perBatch: 1000) {
        sink &+= try suite.snapshot()[probe] == nil ? 0 : 1
    }
    let readFileNs = try measure(rounds: rounds, perBatch: 5) {
        sink &+= try suite.readFile().keys.count
    }
    let decodeNs = try measure(rounds: rounds, perBatch: 5) {
        sink &+= try Suite.decode(original, path: path).count
    }
    // The changed path: replace the file (untimed, atomically as writers do), then time snapshot().
    var changed: [Int64] = []
    var changedAll: [Int64] = []
    for i in 0..<(2 * rounds) {
        try FileSystem.writeAtomically(path, i % 2 == 0 ? variant : original, permissions: 0o600)
        let t0 = now()
        if i % 4 < 2 {
            sink &+= try suite.snapshot()[probe] == nil ? 0 : 1
            changed.append(now() - t0)
        } else {
            sink &+= try suite.snapshot().values.count
            changedAll.append(now() - t0)
        }
        suite.releaseStaleFile()  // as the host does once its reply is sent
    }
    try FileSystem.writeAtomically(path, original, permissions: 0o600)
    let out =
        "{\"keys\":\(keys),\"bytes\":\(original.count),\"rounds\":\(rounds),\"stat_ns\":\(statNs),"
        + "\"unchanged_ns\":\(unchangedNs),\"changed_ns\":\(median(changed)),"
        + "\"changed_all_ns\":\(median(changedAll)),\"readfile_ns\":\(readFileNs),"
        + "\"decode_ns\":\(decodeNs),\"sink\":\(sink % 2)}\n"
    try FileDescriptor.standardOutput.writeAll(Array(out.utf8))
} catch {
    fail("\(error)")
}
