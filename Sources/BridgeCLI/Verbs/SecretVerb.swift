import SharedSuite

/// `extension-bridge secret set NAME [--shared] [--file PATH] | get NAME | delete NAME | list`.
enum SecretVerb: Verb {
    static let shared = OptionSpec("--shared", help: "let the host's getSecret hand it to the extension")
    static let file = OptionSpec("--file", value: "PATH", help: "read the value from this file", completion: .file)
    static let spec = CommandSpec(
        ["secret"], section: "Secrets (the Keychain-sharing analog)",
        abstract: "the group's secrets in the user's Secret Service (macOS: Keychain)",
        discussion: """
            Secrets live in the user's Secret Service (GNOME Keyring, KWallet, KeePassXC)
            through secret-tool, under attributes naming the group, never in the suite or a
            file. The host's getSecret hands out only those set with --shared. Names: 1-128
            bytes of ASCII letters, digits, '.', '_', '-', not starting with '.' or '-'.
            Exit 69 (secrets_unavailable) when no Secret Service answers: nothing is stored
            instead.
            """,
        subcommands: [
            CommandSpec(
                ["secret", "set"], abstract: "store a secret read from stdin or --file, never from the command line",
                discussion: """
                    Reads the value from stdin (or --file); one trailing newline is dropped.
                    At a terminal it asks for one line and does not show what is typed
                    (Ctrl-C cancels, exit 130). The value must be 1 byte to 64 KiB of UTF-8.
                    Replaces an earlier value and its --shared mark.
                    """,
                options: [
                    shared, file,
                ],
                operands: [OperandSpec("NAME")]),
            CommandSpec(
                ["secret", "get"], abstract: "write a secret's value and a newline to stdout",
                operands: [OperandSpec("NAME")]),
            CommandSpec(["secret", "delete"], abstract: "remove a secret", operands: [OperandSpec("NAME")]),
            CommandSpec(["secret", "list"], abstract: "every secret's name and whether it is shared; never values"),
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let groupID = invocation.suiteID ?? GroupContainer.defaultGroupID
        try suite { () throws(SuiteError) in try GroupContainer.validate(groupID: groupID) }
        let commands = SecretCommands(context: context, store: context.makeSecrets(groupID), json: invocation.json)
        switch invocation.subcommand {
        case "set":
            try commands.set(
                invocation.operands[0], shared: invocation.has(shared), file: invocation[file])
        case "get": try commands.get(invocation.operands[0])
        case "delete": try commands.delete(invocation.operands[0])
        default: try commands.list()
        }
        return 0
    }
}
