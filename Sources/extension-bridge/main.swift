import BridgeCLI
import BridgeSystem

exit(BridgeCLI.run(Array(CommandLine.arguments.dropFirst())))
