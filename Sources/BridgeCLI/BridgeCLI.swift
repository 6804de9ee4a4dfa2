import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite

/// The `extension-bridge` tool: the seeds' "main app". It writes the suite
/// the host reads and drains the queue the extension fills.
public enum BridgeCLI {
    /// Every verb, in the order help lists them. Each declares its options and operands.
    static var verbs: [any Verb.Type] {
        [
            ReadVerb.self, WriteVerb.self, DeleteVerb.self, ExportVerb.self, ImportVerb.self, EnableVerb.self,
            DisableVerb.self, RepairVerb.self, WhereVerb.self, InstallVerb.self, UninstallVerb.self, DoctorVerb.self,
            QueueVerb.self, FilesVerb.self, SecretVerb.self, NewVerb.self, UpgradeVerb.self, PackVerb.self,
            RunVerb.self,
            HelpVerb.self,
            CompletionsVerb.self,
            ManVerb.self,
        ]
    }

    /// The declarations of every verb.
    public static var commands: [CommandSpec] { verbs.map { $0.spec } }

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
        let invocation = try Invocation(arguments, commands: commands)
        if invocation.version {
            try context.print(
                invocation.json
                    ? JSONWriter.string([
                        "version": .string(BridgeVersion.current),
                        "protocolVersion": .int(BridgeVersion.protocolVersion),
                    ])
                    : "extension-bridge \(BridgeVersion.current)")
            return 0
        }
        guard let command = invocation.command else {
            if invocation.help {
                try context.print(HelpText.overview(commands))
                return 0
            }
            throw .usage("no command given")
        }
        if invocation.help {
            try context.print(HelpText.page(command))
            return 0
        }
        guard let verb = verbs.first(where: { $0.spec.path.first == command.path.first }) else {
            throw .usage("unknown command '\(command.name)'")
        }
        try verb.validate(invocation)
        return try verb.run(invocation, context: context)
    }
}
