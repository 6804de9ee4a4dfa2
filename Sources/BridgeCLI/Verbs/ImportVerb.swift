/// `extension-bridge import [FILE|-]`.
enum ImportVerb: Verb {
    static let spec = CommandSpec(
        ["import"], section: "Suite (like `defaults`)",
        abstract: "replace the suite from a document or an object of values",
        discussion: """
            Replaces every value with those in FILE (or stdin): a suite document
            as `export` writes it, or a plain object of values. Refuses a newer
            formatVersion.
            """,
        operands: [OperandSpec("FILE|-", optional: true, completion: .file)])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try invocation.suiteCommands(context).importValues(invocation.operands.first)
        return 0
    }
}
