/// `extension-bridge read [KEY]`.
enum ReadVerb: Verb {
    static let spec = CommandSpec(
        ["read"], section: "Suite (like `defaults`)", abstract: "print the whole suite, or one value",
        discussion: """
            Prints the whole suite as JSON, or one value: plain text for scalars
            (strings bare, data as base64, dates as ISO 8601), JSON with --json.
            Exit 66 when KEY does not exist, or the group does not exist (nothing
            was written to it yet; stderr names the groups that do).
            """,
        operands: [OperandSpec("KEY", optional: true)])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try invocation.suiteCommands(context).read(invocation.operands.first)
        return 0
    }
}
