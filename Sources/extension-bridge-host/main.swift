import BridgeHost
import BridgeSystem

exit(HostProgram.run(arguments: CommandLine.arguments))
