/// `extension-bridge help [COMMAND [SUBCOMMAND]]`.
enum HelpVerb: Verb {
    static let spec = CommandSpec(
        ["help"], section: "Shell", abstract: "this overview, or a command's help",
        operands: [
            OperandSpec("COMMAND", optional: true, completion: .commands),
            OperandSpec("SUBCOMMAND", optional: true),
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        guard !invocation.operands.isEmpty else {
            try context.print(HelpText.overview(invocation.commands))
            return 0
        }
        var command = invocation.commands.first { $0.path == [invocation.operands[0]] }
        if invocation.operands.count > 1 { command = command?.subcommand(invocation.operands[1]) }
        guard let command else {
            throw .usage("no help for unknown command '\(invocation.operands.joined(separator: " "))'")
        }
        try context.print(HelpText.page(command))
        return 0
    }
}
