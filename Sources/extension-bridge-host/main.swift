import BridgeHost
import BridgeSystem

// A global: what the program builds stays alive until exit, unfreed.
let program = HostProgram(actions: BuiltInActions.all)
Platform.exit(program.run(arguments: CommandLine.arguments))
