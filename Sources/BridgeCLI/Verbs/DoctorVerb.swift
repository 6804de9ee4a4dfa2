import BridgeJSON
import BridgeProtocol
import BridgeSystem
import BrowserSupport
import SharedSuite

/// `extension-bridge doctor`.
enum DoctorVerb: Verb {
    static let spec = CommandSpec(
        ["doctor"], section: "Browsers", abstract: "check every location and talk to the host",
        discussion: """
            Checks every folder each browser reads: the manifest exists, is valid JSON, its
            name matches the file, its path is absolute and executable, it allows our
            extension, nothing shadows it; then launches the host as the browser would and
            does a hello round trip; a host, manifest or project build that another user could
            have put there (the file or a folder on its path writable by others) is not run,
            and the table says why. Prints a table, the manifest each browser uses (user
            before system), and the command that fixes each problem. Looks at the same
            browsers install detects, plus any with a manifest of ours in your HOME (not a
            system manifest alone: the Debian package places one for each); then reads each
            profile for the extension (a browser never started has no profile yet: a warning
            that says to start it once). With no browser it still checks what it can: a row
            that says so, the host install would register (started if install configured it),
            and secrets. The suite's row warns while the extension is off; the secrets row
            while secret and getSecret cannot answer. Ends with "Everything checks out." only
            when no row is a warning or an error. Exit 1 when anything is broken (an error row, no browser found); warnings
            alone exit 0. With --config, the suite and secrets are the bridge's group
            (--suite still wins). A system manifest a user one shadows is a warning.
            """,
        options: [
            BrowserOptions.browser, BrowserOptions.userDataDirectory, BrowserOptions.system,
            DoctorVerbOptions.all, BrowserOptions.hostName,
            BrowserOptions.extensionID, BrowserOptions.extensionDirectory, BrowserOptions.config,
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        if invocation.has(BrowserOptions.system), invocation.has(BrowserOptions.userDataDirectory) {
            throw .usage("--system and --user-data-dir name different folders; give one", verb: "doctor")
        }
        let inputs = BrowserInputs(context: context, args: invocation)
        let home = try inputs.home
        // Without the extension's folder doctor still checks what it can, against the recorded ids.
        var found: ExtensionIdentity
        var extensionFolderProblem: String?
        do {
            found = try inputs.identity()
        } catch let error where error.kind == .missing && invocation[BrowserOptions.config] == nil {
            extensionFolderProblem = error.message
            found = DoctorRun.recordedIdentity(receiptPath: try inputs.receiptPath())
            try inputs.addExtensionIDs(&found)
        }
        // The extension install --crx installed (its id is this machine's key's) is ours too.
        let identity = try inputs.installer().keepingInstalledExtensions(found)
        let given = invocation[BrowserOptions.browser] != nil || invocation[BrowserOptions.userDataDirectory] != nil
        var run = DoctorRun(
            home: home, environment: context.environment,
            bridge: Installer.InstalledBridge(
                hostName: try inputs.hostName(), identity: identity, configPath: inputs.configPath()),
            onlyNamedBridge: invocation[BrowserOptions.config] != nil || invocation[BrowserOptions.hostName] != nil,
            browsers: given ? try inputs.browsers() : nil, userDataDirectory: inputs.userDataDirectory())
        run.systemOnly = invocation.has(BrowserOptions.system)
        run.executable = Platform.executablePath()
        run.extensionFolderProblem = extensionFolderProblem
        var checks = run.checks()
        // The suite's row: the keys the host reads, with the types it reads them as. The group is the one
        // the installed host serves (its configuration's, as install --suite set it), else a bridge's own
        // with --config; --suite still wins.
        let bridgeGroup = try inputs.bridge()?.group
        let served = DoctorRun.servedGroups(
            checks, hostName: try inputs.hostName(), defaultGroup: GroupContainer.defaultGroupID)
        var suiteInvocation = invocation
        suiteInvocation.suiteID = invocation.suiteID ?? served.first ?? bridgeGroup
        do {
            var row = Doctor.suiteCheck(try suiteInvocation.container(context), tool: SuiteCommands.tool(context))
            if let container = context.environment[EnvironmentVariable.container] {
                row = Doctor.containerOverridden(row, by: container, tool: SuiteCommands.tool(context))
            }
            checks.append(row)
        } catch {
            // A container the CLI refuses (another user's, say) is one broken row: doctor still reports the rest.
            checks.append(
                Doctor.refusedSuiteCheck(
                    groupID: suiteInvocation.suiteID ?? GroupContainer.defaultGroupID, reason: error.message))
        }
        let secrets = secretsCheck(BrowserInputs(context: context, args: suiteInvocation))
        checks.append(Doctor.secretsCheck(ok: secrets.ok, backend: secrets.backend, detail: secrets.detail))
        if invocation.json {
            try context.print(
                JSONWriter.prettyString([
                    "ok": .bool(DoctorRun.exitStatus(checks) == 0), "summary": .string(Doctor.summary(checks)),
                    "checks": .array(checks.map(\.json)),
                    "secrets": [
                        "status": .string(secrets.ok ? "ok" : "warning"), "backend": .string(secrets.backend),
                        "detail": .string(secrets.detail),
                    ],
                ]))
        } else {
            try printTable(checks, inputs)
        }
        return DoctorRun.exitStatus(checks)
    }

    /// Whether `secret` and `getSecret` work for this user: a `list` of the
    /// group's secrets in the CLI's environment (the browser's may differ). A
    /// warning, never a failure: a bridge that stores no secrets needs no keyring.
    static func secretsCheck(_ inputs: BrowserInputs) -> (ok: Bool, backend: String, detail: String) {
        let groupID = inputs.args.suiteID ?? GroupContainer.defaultGroupID
        let store = inputs.context.makeSecrets(groupID)
        do throws(SecretError) {
            let entries = try store.list()
            return (
                true, store.backendName,
                "answers: \(entries.count) secret(s) of \(groupID), \(entries.filter(\.shared).count) shared"
            )
        } catch {
            return (false, store.backendName, "\(error) (secret and getSecret answer secrets_unavailable)")
        }
    }

    static func printTable(_ checks: [DoctorCheck], _ inputs: BrowserInputs) throws(CLIError) {
        let (context, args) = (inputs.context, inputs.args)
        let shown = checks.filter { $0.status != .absent || args.has(DoctorVerbOptions.all) }
        let browserWidth = max(7, shown.map(\.browser.count).max() ?? 0)
        try context.print(
            inputs.pad("BROWSER", browserWidth) + "  " + inputs.pad("WHERE", 7) + "  " + inputs.pad("STATUS", 7)
                + "  DETAIL")
        for check in shown {
            try context.print(
                inputs.pad(check.browser, browserWidth) + "  " + inputs.pad(check.scope, 7) + "  "
                    + inputs.pad(check.status.rawValue, 7)
                    + "  " + (check.path.isEmpty ? "" : check.path + ": ") + check.detail)
        }
        let used = checks.filter(\.inUse)
        if !used.isEmpty {
            try context.print("\nIn use (the manifest each browser reads; user before system):")
            for check in used { try context.print("  \(check.browser): \(check.scope) \(check.path)") }
        }
        let fixes = shown.filter { $0.fix != nil && $0.status != .ok }
        if !fixes.isEmpty {
            try context.print("\nTo fix:")
            for check in fixes { try context.print("  \(check.browser): \(check.fix ?? "")") }
        }
        try context.print("\n" + Doctor.summary(checks))
    }
}

/// The options of `extension-bridge doctor`, declared once: its spec lists them and its code reads
/// them through these (`invocation[DoctorVerbOptions.all]`), never by a string.
enum DoctorVerbOptions {
    static let all = OptionSpec("--all", help: "also list folders without a manifest")
}
