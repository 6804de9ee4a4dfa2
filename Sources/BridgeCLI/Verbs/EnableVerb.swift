/// `extension-bridge enable`.
enum EnableVerb: Verb {
    static let spec = CommandSpec(
        ["enable"], section: "Suite (like `defaults`)", abstract: "set extensionEnabled to true",
        discussion: "Sets extensionEnabled to true (and user_defaults_suite_enabled, if present).")

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try invocation.suiteCommands(context).setEnabled(true)
        return 0
    }
}
