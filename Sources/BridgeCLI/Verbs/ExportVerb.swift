/// `extension-bridge export [FILE|-]`.
enum ExportVerb: Verb {
    static let spec = CommandSpec(
        ["export"], section: "Suite (like `defaults`)", abstract: "write the suite document (stdout by default)",
        discussion: """
            Writes the suite document ({formatVersion, values}) to FILE or stdout.
            An existing FILE must be a regular file: it is replaced atomically (a
            new file renamed over it); a link, device, pipe, socket or folder there
            is refused (73). To write through one, use `export > FILE`.
            """,
        operands: [OperandSpec("FILE|-", optional: true, completion: .file)])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try invocation.suiteCommands(context).export(invocation.operands.first)
        return 0
    }
}
