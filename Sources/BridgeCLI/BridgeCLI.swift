import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite

/// The `extension-bridge` tool: the seeds' "main app". It writes the suite
/// the host reads and drains the queue the extension fills.
public enum BridgeCLI {
    /// Runs one command line (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], context: CLIContext = .standard()) -> Int32 {
        do {
            return try execute(arguments, context: context)
        } catch {
            context.writeErr("extension-bridge: \(error.message)")
            return error.exitStatus
        }
    }

    static func execute(_ arguments: [String], context: CLIContext) throws(CLIError) -> Int32 {
        let args = try Arguments(arguments)
        if args.version {
            try context.print(
                args.json
                    ? JSONWriter.string([
                        "version": .string(BridgeVersion.current),
                        "protocolVersion": .int(BridgeVersion.protocolVersion),
                    ])
                    : "extension-bridge \(BridgeVersion.current)")
            return 0
        }
        guard let verb = args.words.first else {
            if args.help {
                try context.print(Help.overview)
                return 0
            }
            throw .usage("no command given")
        }
        if verb == "help" {
            try context.print(args.words.count > 1 ? try Help.text(for: args.words[1]) : Help.overview)
            return 0
        }
        if args.help {
            try context.print(try Help.text(for: verb))
            return 0
        }
        if verb == "new" {
            try NewCommand(context: context, args: args).run(Array(args.words.dropFirst()))
            return 0
        }
        let browserCommands = BrowserCommands(context: context, args: args)
        switch verb {
        case "install", "uninstall", "doctor":
            guard args.words.count == 1 else { throw .usage("\(verb) takes options only", verb: verb) }
            if verb == "install" { try browserCommands.install() }
            if verb == "uninstall" { try browserCommands.uninstall() }
            return verb == "doctor" ? try browserCommands.doctor() : 0
        default:
            break
        }
        let operands = Array(args.words.dropFirst())
        let container = try suite { () throws(SuiteError) in
            try GroupContainer(groupID: args.suiteID ?? GroupContainer.defaultGroupID, environment: context.environment)
        }
        let store = Suite(container: container)
        let commands = SuiteCommands(context: context, store: store, json: args.json)
        switch verb {
        case "read": try commands.read(operands)
        case "write": try commands.write(operands)
        case "delete": try commands.delete(operands)
        case "export": try commands.export(operands)
        case "import": try commands.importValues(operands)
        case "enable", "disable":
            guard operands.isEmpty else { throw .usage("\(verb) takes no operands", verb: verb) }
            try commands.setEnabled(verb == "enable")
        case "repair":
            guard operands.isEmpty else { throw .usage("repair takes no operands", verb: verb) }
            try commands.repair()
        case "queue":
            let queue = PendingQueue(container: container, limits: QueueLimits(environment: context.environment))
            try QueueCommands(context: context, queue: queue, json: args.json).run(operands, all: args.has("--all"))
        case "files":
            try FilesCommands(context: context, files: SharedFiles(container: container), json: args.json).run(operands)
        case "where":
            try context.print(container.path)
        default:
            throw .usage("unknown command '\(verb)'")
        }
        return 0
    }
}
