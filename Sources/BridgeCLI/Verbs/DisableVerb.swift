/// `extension-bridge disable`.
enum DisableVerb: Verb {
    static let spec = CommandSpec(
        ["disable"], section: "Suite (like `defaults`)", abstract: "set extensionEnabled to false",
        discussion: "Sets extensionEnabled to false (and user_defaults_suite_enabled, if present).")

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try invocation.suiteCommands(context).setEnabled(false)
        return 0
    }
}
