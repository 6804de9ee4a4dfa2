/// `extension-bridge delete KEY`.
enum DeleteVerb: Verb {
    static let spec = CommandSpec(
        ["delete"], section: "Suite (like `defaults`)", abstract: "remove a key",
        discussion: "Removes KEY. Exit 66 when it does not exist.", operands: [OperandSpec("KEY")])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try invocation.suiteCommands(context).delete(invocation.operands[0])
        return 0
    }
}
