import BridgeHost
import BridgeSystem
import GreetingActions

// The whole host: its name, the built-in actions plus the app's own, run.
let program = HostProgram(
    configuration: HostProgram.Configuration(name: "greeting-host", defaultGroupID: "group.org.example.greeting"),
    actions: BuiltInActions.all + [GreetAction()])
Platform.exit(program.run(arguments: CommandLine.arguments))
