import BridgeCLI
import BridgeSystem

// A reader that goes away (a closed pipe, a host that exits before reading)
// must be an EPIPE error with a message, not a silent death by SIGPIPE.
Signals.ignore(.pipe)
Platform.exit(BridgeCLI.run(Array(CommandLine.arguments.dropFirst())))
