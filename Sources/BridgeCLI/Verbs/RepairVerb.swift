/// `extension-bridge repair`.
enum RepairVerb: Verb {
    static let spec = CommandSpec(
        ["repair"], section: "Suite (like `defaults`)", abstract: "move an unreadable suite file aside",
        discussion: """
            Moves an unreadable suite.json aside to suite.json.corrupt-TIME and keeps
            every key that still reads; it names the keys left only in the moved file.
            With none readable, the suite starts from defaults. A readable or
            newer-format file is left alone.
            """)

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try invocation.suiteCommands(context).repair()
        return 0
    }
}
