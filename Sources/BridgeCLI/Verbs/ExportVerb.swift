/// `extension-bridge export [FILE|-]`.
enum ExportVerb: Verb {
    static let spec = CommandSpec(
        ["export"], section: "Suite (like `defaults`)", abstract: "write the suite document (stdout by default)",
        discussion: "Writes the suite document ({formatVersion, values}) to FILE (atomically) or stdout.",
        operands: [OperandSpec("FILE|-", optional: true, completion: .file)])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try invocation.suiteCommands(context).export(invocation.operands.first)
        return 0
    }
}
