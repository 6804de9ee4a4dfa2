import BridgeJSON
import BrowserSupport

/// `extension-bridge uninstall`.
enum UninstallVerb: Verb {
    static let spec = CommandSpec(
        ["uninstall"], section: "Browsers", abstract: "remove exactly what install wrote",
        discussion: """
            Removes the files install wrote (all, or those of --browser / --user-data-dir),
            as its receipt lists them; a file changed since is left alone. With the last
            browser's files goes the signing key install --crx made: the next install --crx
            or pack then makes a new key, so the extension gets a new Chromium id and browsers
            treat it as a different extension; --keep-key keeps it (scripts/uninstall.sh does).
            --dry-run prints what would be removed and removes nothing. A receipt another user
            owns or could write (or one in a folder others can write) is refused (77).
            """,
        options: [
            BrowserOptions.browser, BrowserOptions.userDataDirectory, BrowserOptions.config,
            UninstallVerbOptions.keepKey, UninstallVerbOptions.dryRun,
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let inputs = BrowserInputs(context: context, args: invocation)
        let selection = invocation[BrowserOptions.browser] == nil ? nil : try inputs.browsers()
        let installer = try inputs.installer()
        let dryRun = invocation.has(UninstallVerbOptions.dryRun)
        let keys = installer.recordedSigningKeys()
        let keepKey = invocation.has(UninstallVerbOptions.keepKey)
        var results: [(String, Installer.Outcome)]
        do throws(InstallError) {
            if dryRun {
                results = try installer.uninstallPreview(browsers: selection, folderPrefix: inputs.userDataDirectory())
                if keepKey { results.removeAll { keys.contains($0.0) } }
            } else {
                if keepKey { for key in keys { try installer.keepSigningKey(key) } }
                results = try installer.uninstall(browsers: selection, folderPrefix: inputs.userDataDirectory())
            }
        } catch {
            throw CLIError(error.exitKind, error.description)
        }
        if dryRun { try printPreview(results, inputs) } else { try inputs.printOutcomes(results) }
        guard !invocation.json else { return 0 }
        if results.isEmpty { context.writeErr("nothing to uninstall: the receipt lists no such files") }
        for (path, outcome) in results where keys.contains(path) && outcome == .removed {
            context.writeErr(
                "\(dryRun ? "would remove" : "removed") the signing key \(path) that install made: the next install "
                    + "--crx or pack makes a new key, so the extension gets a new Chromium id and browsers treat it "
                    + "as a different extension (--keep-key keeps it)")
        }
        if keepKey && !keys.isEmpty {
            context.writeErr("kept the signing key \(keys.joined(separator: ", ")) (--keep-key)")
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
    static let keepKey = OptionSpec(
        "--keep-key", help: "keep the signing key install made, so the extension keeps its Chromium id")
}
