import BrowserSupport

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
        let inputs = BrowserInputs(context: context, args: invocation)
        let selection = invocation[BrowserOptions.browser] == nil ? nil : try inputs.browsers()
        let installer = try inputs.installer()
        let results: [(String, Installer.Outcome)]
        do throws(InstallError) {
            results = try installer.uninstall(browsers: selection, folderPrefix: inputs.userDataDirectory())
        } catch {
            throw CLIError(.io, error.description)
        }
        try inputs.printOutcomes(results)
        if !invocation.json && results.isEmpty {
            context.writeErr("nothing to uninstall: the receipt lists no such files")
        }
        return 0
    }
}
