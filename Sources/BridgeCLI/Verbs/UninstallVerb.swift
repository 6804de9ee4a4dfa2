/// `extension-bridge uninstall`.
enum UninstallVerb: Verb {
    static let spec = CommandSpec(
        ["uninstall"], section: "Browsers", abstract: "remove exactly what install wrote",
        discussion: """
            Removes the files install wrote (all, or those of --browser / --user-data-dir),
            as its receipt lists them; a file changed since is left alone.
            """,
        options: [BrowserOptions.browser, BrowserOptions.userDataDirectory, BrowserOptions.config])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try BrowserCommands(context: context, args: invocation).uninstall()
        return 0
    }
}
