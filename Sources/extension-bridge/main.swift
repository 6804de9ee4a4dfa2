import BridgeCLI
import BridgeSystem

// A reader that goes away (a closed pipe, a host that exits before reading)
// must be an EPIPE error with a message, not a silent death by SIGPIPE.
Signals.ignore(.pipe)
// Past `ulimit -f` a write must fail with EFBIG (a message, nothing changed), not kill the CLI.
Signals.ignore(.fileSizeLimit)
Platform.exit(BridgeCLI.run(Array(CommandLine.arguments.dropFirst())))
