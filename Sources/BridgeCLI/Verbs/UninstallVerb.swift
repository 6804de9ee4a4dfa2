import BridgeJSON
import BridgeSystem
import BrowserSupport

/// `extension-bridge uninstall`.
enum UninstallVerb: Verb {
    static let spec = CommandSpec(
        ["uninstall"], section: "Browsers", abstract: "remove exactly what install wrote",
        discussion: """
            Removes the files install wrote (all, or those of --browser / --user-data-dir),
            as its receipt lists them; a file changed since is left alone. The signing key
            install --crx made stays, as install said to keep it (a later install --crx signs
            with it, so the extension keeps its Chromium id); --remove-key removes it with the
            last browser's files: the next install --crx or pack then makes a new key, so the
            extension gets a new Chromium id and browsers treat it as a different extension.
            --dry-run prints what would be removed and removes nothing. A receipt another user
            owns or could write (or one in a folder others can write) is refused (77).
            """,
        options: [
            BrowserOptions.browser, BrowserOptions.userDataDirectory, BrowserOptions.config,
            UninstallVerbOptions.removeKey, UninstallVerbOptions.dryRun,
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let inputs = BrowserInputs(context: context, args: invocation)
        let selection = invocation[BrowserOptions.browser] == nil ? nil : try inputs.browsers()
        let installer = try inputs.installer()
        let dryRun = invocation.has(UninstallVerbOptions.dryRun)
        let keys = installer.recordedSigningKeys()
        let keepKey = !invocation.has(UninstallVerbOptions.removeKey)
        var results: [(String, Installer.Outcome)]
        // The keys this uninstall would remove (with the last browser's files): kept unless --remove-key. A
        // partial uninstall leaves the key in the receipt, so a later --remove-key still finds it.
        var kept: [String] = []
        do throws(InstallError) {
            let preview = try installer.uninstallPreview(browsers: selection, folderPrefix: inputs.userDataDirectory())
            if keepKey { kept = preview.filter { keys.contains($0.0) && $0.1 == .removed }.map(\.0) }
            if dryRun {
                results = preview.filter { !kept.contains($0.0) }
            } else {
                for key in kept { try installer.keepSigningKey(key) }
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
                    + "as a different extension")
        }
        if !keepKey { try sayWhyTheKeyStays(results: results, recorded: keys, inputs, dryRun: dryRun) }
        for key in kept {
            context.writeErr(
                "\(dryRun ? "would keep" : "kept") the signing key \(key) install made, as it said to: a later "
                    + "install --crx signs with it, so the extension keeps its Chromium id"
                    + (dryRun ? " (--remove-key would remove it)" : " (delete it to give that id up)"))
        }
        return 0
    }

    /// With --remove-key, the machine's key when this uninstall leaves it: the user asked for it to
    /// go, so say why it stays and how to remove it (exit 0 alone would read as done).
    static func sayWhyTheKeyStays(
        results: [(String, Installer.Outcome)], recorded: [String], _ inputs: BrowserInputs, dryRun: Bool
    ) throws(CLIError) {
        let key = ExtensionKey.machineKeyPath(home: try inputs.home, environment: inputs.context.environment)
        guard Platform.exists(key), !results.contains(where: { $0.0 == key && $0.1 == .removed }) else { return }
        let why =
            recorded.contains(key)
            ? "other browsers' files install wrote still need it: it goes with the last of them"
            : "no install receipt lists it (an earlier uninstall kept it, a later install reused it, or pack signed a "
                + "package with it)"
        inputs.context.writeErr(
            "\(dryRun ? "would keep" : "kept") the signing key \(key): \(why); to give its Chromium id up, delete it: "
                + "rm \(key.shellQuoted)")
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
    static let removeKey = OptionSpec(
        "--remove-key", help: "remove the signing key install made too (the extension then gets a new Chromium id)")
}
