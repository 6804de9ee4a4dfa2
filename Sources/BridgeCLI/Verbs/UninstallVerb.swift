import BridgeJSON
import BrowserSupport

/// `extension-bridge uninstall`.
enum UninstallVerb: Verb {
    static let spec = CommandSpec(
        ["uninstall"], section: "Browsers", abstract: "remove exactly what install wrote",
        discussion: """
            Removes the files install wrote (all, or those of --browser / --user-data-dir),
            as its receipt lists them; a file changed since is left alone.
            --dry-run prints what would be removed and removes nothing.
            """,
        options: [
            BrowserOptions.browser, BrowserOptions.userDataDirectory, BrowserOptions.config,
            UninstallVerbOptions.dryRun,
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let inputs = BrowserInputs(context: context, args: invocation)
        let selection = invocation[BrowserOptions.browser] == nil ? nil : try inputs.browsers()
        let installer = try inputs.installer()
        let dryRun = invocation.has(UninstallVerbOptions.dryRun)
        let results: [(String, Installer.Outcome)]
        do throws(InstallError) {
            results =
                dryRun
                ? try installer.uninstallPreview(browsers: selection, folderPrefix: inputs.userDataDirectory())
                : try installer.uninstall(browsers: selection, folderPrefix: inputs.userDataDirectory())
        } catch {
            throw CLIError(.io, error.description)
        }
        if dryRun { try printPreview(results, inputs) } else { try inputs.printOutcomes(results) }
        if !invocation.json && results.isEmpty {
            context.writeErr("nothing to uninstall: the receipt lists no such files")
        }
        return 0
    }

    /// `--dry-run`: one line per file, "would remove" or why it would stay.
    static func printPreview(_ results: [(String, Installer.Outcome)], _ inputs: BrowserInputs) throws(CLIError) {
        for (path, outcome) in results {
            if inputs.args.json {
                let what = outcome == .removed ? "would remove" : "would keep: " + outcome.rawValue
                try inputs.context.print(JSONWriter.string(["path": .string(path), "outcome": .string(what)]))
            } else {
                try inputs.context.print(
                    outcome == .removed ? "would remove \(path)" : "would keep \(path): \(outcome.rawValue)")
            }
        }
    }
}

/// The options of `extension-bridge uninstall`, declared once.
enum UninstallVerbOptions {
    static let dryRun = OptionSpec("--dry-run", help: "print what would be removed, remove nothing")
}
