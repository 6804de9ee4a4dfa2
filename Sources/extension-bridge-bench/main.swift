// In-process micro-benchmarks of the libraries (suite reads and parses),
// run by scripts/bench. Not installed.
import BridgeSystem

try? FileIO.writeAll(2, Array("extension-bridge-bench: run it through scripts/bench\n".utf8))
exit(64)
