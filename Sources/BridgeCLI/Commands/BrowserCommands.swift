import BridgeJSON
import BridgeProtocol
import BridgeSystem
import BrowserSupport
import SharedSuite

/// `install`, `uninstall`, `doctor`.
struct BrowserCommands {
    let context: CLIContext
    let args: Invocation

    var home: String {
        get throws(CLIError) {
            guard let home = context.environment["HOME"] else {
                throw CLIError(.io, "HOME is not set; set it to the home folder whose browsers you mean")
            }
            // Everything found from HOME (manifests, receipts, the machine key) is recorded or reused later,
            // from any folder: a relative HOME would name other files in each.
            guard home.hasPrefix("/") else {
                throw CLIError(
                    .io, "HOME '\(DisplayText.escaped(home))' is not an absolute path; set it to the home folder, /…")
            }
            return home
        }
    }

    /// `--browser`: names, `all`, or `detected` (the default).
    func browsers(defaultAll: Bool = false) throws(CLIError) -> [Browser] {
        let home = try home
        let requested = args[BrowserOptions.browser].map { $0.split(separator: ",").map(String.init) }
        if requested == nil, args[BrowserOptions.userDataDirectory] != nil,
            let chromium = BrowserCatalog.named("chromium")
        {
            return [chromium]
        }
        var out: [Browser] = []
        for name in requested ?? [defaultAll ? "all" : "detected"] {
            switch name {
            case "all": out += BrowserCatalog.all
            case "detected": out += detector(home: home).detect().map(\.browser)
            default:
                guard let browser = BrowserCatalog.named(name) else {
                    throw CLIError(.usage, InstallError.unknownBrowser(name).description)
                }
                out.append(browser)
            }
        }
        var seen = Set<String>()
        out = out.filter { seen.insert($0.id).inserted }
        if out.isEmpty { throw CLIError(.missing, InstallError.noBrowserDetected.description) }
        return out
    }

    /// `--config bridge.json`: a generated bridge's description; nil without the option. What install
    /// and pack write and sign comes from a project only its owner can write (`loadTrusted`).
    func bridge() throws(CLIError) -> BridgeDescription? {
        guard let path = args[BrowserOptions.config] else { return nil }
        do {
            if ["install", "pack"].contains(args.command?.path.first) {
                return try BridgeDescription.loadTrusted(path)
            }
            return try BridgeDescription.load(path)
        } catch {
            if case .untrustedProject = error { throw CLIError(.noPermission, error.description) }
            throw CLIError(.data, error.description)
        }
    }

    /// `--config`'s path made absolute (what a receipt records), or nil.
    func configPath() -> String? {
        guard let path = args[BrowserOptions.config] else { return nil }
        return path.hasPrefix("/") ? path : (currentDirectory() ?? ".") + "/" + path
    }

    /// `--user-data-dir` made absolute against the current folder: what install writes and records,
    /// and what uninstall and doctor look in, is the same folder wherever they run.
    func userDataDirectory() -> String? {
        args[BrowserOptions.userDataDirectory].map {
            FileSystem.absolutePath($0, from: currentDirectory() ?? "/")
        }
    }

    /// The host name: the bridge's, `--host-name`, or the built-in one.
    func hostName() throws(CLIError) -> String {
        try bridge()?.hostName ?? args[BrowserOptions.hostName] ?? HostManifest.defaultName
    }

    /// The receipt of the bridge acted on.
    func receiptPath() throws(CLIError) -> String {
        Installer.receiptPath(home: try home, environment: context.environment, hostName: try hostName())
    }

    /// The one detector `install` and `doctor` share, so they agree about which browsers are present.
    func detector(home: String) -> BrowserDetector {
        BrowserDetector.forEnvironment(home: home, environment: context.environment)
    }

    /// The extension's ids: the bridge's, or from `--extension-dir`, the installed copy, or ./extension;
    /// plus `--extension-id`.
    func identity() throws(CLIError) -> ExtensionIdentity {
        if var identity = try bridge()?.identity {
            try addExtensionIDs(&identity)
            return identity
        }
        var lastError: InstallError?
        for dir in extensionDirectoryCandidates() {
            var identity: ExtensionIdentity
            do {
                identity = try ExtensionIdentity.load(extensionDirectory: dir)
            } catch {
                lastError = error
                continue
            }
            try addExtensionIDs(&identity)
            return identity
        }
        throw CLIError(.missing, lastError?.description ?? "no extension folder found; pass --extension-dir DIR")
    }

    /// `--extension-id`: each a Chromium or Firefox id, else a data error (65) naming it.
    func addExtensionIDs(_ identity: inout ExtensionIdentity) throws(CLIError) {
        do {
            try identity.add((args[BrowserOptions.extensionID] ?? "").split(separator: ",").map(String.init))
        } catch {
            throw CLIError(.data, error.description)
        }
    }

    /// Where the built-in bridge's extension folder is looked for, in order: `--extension-dir`, else the
    /// installed copy (`<prefix>/share/extension-bridge/extension` beside this binary's `bin/`), then `./extension`.
    func extensionDirectoryCandidates() -> [String] {
        if let dir = args[BrowserOptions.extensionDirectory] { return [dir] }
        var candidates: [String] = []
        if let exe = Platform.executablePath() {
            candidates.append(FileSystem.parentPath(FileSystem.parentPath(exe)) + "/share/extension-bridge/extension")
        }
        candidates.append("extension")
        return candidates
    }

    /// Where the host is looked for without `--host-path`, beside this binary's own location: in the same
    /// folder (`scripts/install.sh`'s layout), then `../lib/extension-bridge/` (the Debian package's:
    /// `/usr/bin/extension-bridge` and `/usr/lib/extension-bridge/extension-bridge-host`).
    static func defaultHostCandidates(executable: String) -> [String] {
        let bin = FileSystem.parentPath(executable)
        return [
            bin + "/" + HostIdentity.defaultHostProduct,
            FileSystem.parentPath(bin) + "/lib/extension-bridge/" + HostIdentity.defaultHostProduct,
        ]
    }

    /// The host the manifests point at: `--host-path`, else the first of `defaultHostCandidates`
    /// that is executable (said on stderr when it is not the one beside this binary).
    func hostPath() throws(CLIError) -> String {
        let destination = args[InstallVerbOptions.destination] ?? ""
        if var path = args[InstallVerbOptions.hostPath] {
            if !path.hasPrefix("/"), let cwd = currentDirectory() { path = cwd + "/" + path }
            guard FileSystem.isExecutable(destination + path) else {
                throw CLIError(.missing, InstallError.hostMissing(path: destination + path).description)
            }
            return path
        }
        let candidates = Platform.executablePath().map(BrowserCommands.defaultHostCandidates) ?? []
        guard let path = candidates.first(where: { FileSystem.isExecutable(destination + $0) }) else {
            throw CLIError(
                .missing,
                "no executable host at \(candidates.map { destination + $0 }.joined(separator: " or ")); build and "
                    + "install it with scripts/install.sh, or pass --host-path")
        }
        try requireTrusted(destination + path, found: "the host beside this binary")
        if path != candidates.first && !args.json {
            context.writeErr(
                "using the host \(path) (the package's layout: ../lib/extension-bridge beside this binary)")
        }
        return path
    }

    /// Refuses (77) a host found without `--host-path` that fails `PathTrust`: the browser would run
    /// with the user's rights a program others could have put there (`--host-path` is the person's choice).
    func requireTrusted(_ path: String, found what: String) throws(CLIError) {
        guard let refusal = PathTrust.refusal(path) else { return }
        throw CLIError(
            .noPermission,
            "refusing \(what) \(path): \(refusal), so another user could have put their program there, and the "
                + "browser would run it as you; " + (refusal.fix.map { "run \($0), or " } ?? "")
                + "pass --host-path to choose the host yourself")
    }

    func installer() throws(CLIError) -> Installer {
        // The package's files are looked for in the staging folder, a test's fake root, or the system.
        let root = args[InstallVerbOptions.destination] ?? context.environment[EnvironmentVariable.detectRoot] ?? ""
        return Installer(home: try home, receiptPath: try receiptPath(), packaged: PackagedFiles(root: root))
    }

    /// For `--config`: the built host (`--host-path`, else the newer of the project's release and
    /// debug builds, named on stderr when both exist) and the stable path it is copied to: its own
    /// folder under the user's data folder, or with `--system` `/usr/lib/<host name>/`, never a HOME.
    func bridgeHost(_ bridge: BridgeDescription, configPath: String) throws(CLIError) -> (
        source: String, target: String
    ) {
        let source = try builtBridgeHost(bridge, configPath: configPath)
        let folder =
            args.has(BrowserOptions.system)
            ? Installer.systemHostFolder(hostName: bridge.hostName)
            : Installer.hostFolder(home: try home, environment: context.environment, hostName: bridge.hostName)
        return (source, folder + "/" + bridge.hostProduct)
    }

    /// The host a bridge's project built: `--host-path`, else the newer of `.build/release` and
    /// `.build/debug` (said on stderr when both exist, so an old release build never wins silently).
    func builtBridgeHost(_ bridge: BridgeDescription, configPath: String) throws(CLIError) -> String {
        let cwd = currentDirectory() ?? "."
        if let given = args[InstallVerbOptions.hostPath] {
            let path = given.hasPrefix("/") ? given : cwd + "/" + given
            guard FileSystem.isExecutable(path) else {
                throw CLIError(.missing, "no executable host at \(path) (--host-path)")
            }
            return path
        }
        let config = configPath.hasPrefix("/") ? configPath : cwd + "/" + configPath
        let project = FileSystem.parentPath(config)
        guard let (newest, older) = ProjectBuild.newest(of: bridge, in: project) else {
            // The project's own script builds the host (static, as a package needs it) and goes on.
            let script = args.has(PackVerbOptions.deb) ? "package-deb.sh" : "install.sh"
            let fix =
                Self.projectScript(script, besides: config).map { "run `\($0)`, which builds it first" }
                ?? "build it (swift build -c release -Xswiftc -static-executable --product \(bridge.hostProduct))"
            throw CLIError(
                .missing,
                "no built host \(bridge.hostProduct) in \(project)/.build/release or .build/debug: \(fix), or pass "
                    + "--host-path")
        }
        try requireTrusted(newest, found: "the project's newest host build")
        if let older, !args.json { context.writeErr("using the newer host build \(newest) (\(older) is older)") }
        return newest
    }

    /// `cd 'PROJECT' && scripts/NAME` when the project of `config` (a bridge.json) has that executable
    /// script (`new` writes install.sh and package-deb.sh); nil otherwise.
    static func projectScript(_ name: String, besides config: String) -> String? {
        let project = FileSystem.parentPath(config)
        guard FileSystem.isExecutable(project + "/scripts/" + name) else { return nil }
        return "cd \(project.shellQuoted) && scripts/\(name)"
    }

    func install() throws(CLIError) {
        // --destdir: stage a system install for a package (the package manager, not a receipt, owns the files).
        let destination = args[InstallVerbOptions.destination]
        if let destination, !args.has(BrowserOptions.system) || !destination.hasPrefix("/") {
            throw .usage("--destdir needs --system and an absolute folder", verb: "install")
        }
        var hostPath: String
        var hostBinary: [UInt8]?
        let bridge = try bridge()
        if let bridge, let configPath = args[BrowserOptions.config] {
            let (source, target) = try bridgeHost(bridge, configPath: configPath)
            do {
                hostBinary = try FileSystem.readFile(source, limit: 256 << 20)
            } catch {
                throw CLIError(.io, "cannot read the host \(source): \(error)")
            }
            hostPath = target
        } else {
            hostPath = try self.hostPath()
        }
        var options = InstallOptions(
            browsers: try browsers(), system: args.has(BrowserOptions.system),
            userDataDirectory: userDataDirectory(),
            hostName: try hostName(), hostPath: hostPath, identity: try identity(),
            group: args.suiteID ?? bridge?.group, logLevel: args[InstallVerbOptions.logLevel])
        options.hostBinary = hostBinary
        let installer = try installer()
        if args.has(InstallVerbOptions.crx) {
            if options.system { throw CLIError(.usage, InstallError.packedWithSystem.description) }
            // Everything but the CRX checked first, the files already there too: a refused install makes no key.
            let plan: [PlannedFile]
            do {
                plan = try installer.plan(options)
            } catch {
                throw CLIError(.usage, error.description)
            }
            do {
                try installer.check(plan)
            } catch {
                throw applyError(error, system: options.system)
            }
            if let packed = try packedExtension(bridge) {
                options.packedExtension = packed
                options.identity.chromiumIDs +=
                    options.identity.chromiumIDs.contains(packed.chromiumID) ? [] : [packed.chromiumID]
            }
        }
        var plan: [PlannedFile]
        do {
            plan = try installer.plan(options)
        } catch {
            throw CLIError(.usage, error.description)
        }
        if let destination {
            plan = plan.map { PlannedFile(path: destination + $0.path, bytes: $0.bytes, kind: $0.kind) }
        }
        if args.has(InstallVerbOptions.dryRun) {
            for file in plan {
                // Text files are shown; a binary (host, CRX) only by size, and a private key never.
                let shown = file.kind.isText
                if args.json {
                    var record: [String: JSONValue] = ["path": .string(file.path), "bytes": .int(file.bytes.count)]
                    if shown { record["content"] = .string(String(decoding: file.bytes, as: UTF8.self)) }
                    try context.print(JSONWriter.string(.object(record)))
                } else if shown {
                    try context.print("would write \(file.path):")
                    try context.out(file.bytes)
                } else {
                    try context.print("would write \(file.path) (\(file.bytes.count) bytes, not shown)")
                }
            }
            return
        }
        let results: [(PlannedFile, Installer.Outcome)]
        do {
            results = try installer.apply(
                plan,
                bridge: Installer.InstalledBridge(
                    hostName: options.hostName, identity: options.identity, configPath: configPath()),
                recordReceipt: destination == nil)
        } catch {
            throw applyError(error, system: options.system)
        }
        try report(results.map { ($0.0.path, $0.1) })
        if let packed = options.packedExtension, !args.json { explainPacked(packed, options) }
        if let destination, !args.json {
            context.writeErr("staged the system install under \(destination) (no receipt: the package owns the files)")
        } else if !args.json {
            let changed = results.contains { $0.1 == .written }
            context.writeErr(
                changed
                    ? "installed \(HostManifest.defaultName == options.hostName ? "the host" : options.hostName) for "
                        + options.browsers.map(\.id).joined(separator: ", ") + "; check with `extension-bridge doctor`"
                    : "already installed: nothing changed")
        }
    }

    /// How a refusal of `Installer.apply` (or `check`) exits: 73 for a file that is not ours to change.
    private func applyError(_ error: InstallError, system: Bool) -> CLIError {
        switch error {
        case .packageOwned, .notOurs, .otherProgramsManifest, .linkedManifest:
            return CLIError(.cantCreate, error.description)
        default:
            return CLIError(.io, error.description + (system ? " (system folders need root: run with sudo)" : ""))
        }
    }

    /// `--crx`: the extension packed and signed with the bridge's key (a generated
    /// project's `keys/`, else this machine's key, made the first time), and the
    /// stable path the browsers read it from.
    /// Nil for `--dry-run` before this machine has a key: a dry run makes none.
    func packedExtension(_ bridge: BridgeDescription?) throws(CLIError) -> PackedExtension? {
        let folder: String
        if let bridge { folder = bridge.extensionFolder } else { folder = try extensionFolder() }
        let package = try pack { () throws(PackError) in
            try ExtensionPackage(extensionDirectory: folder, chromiumManifest: bridge?.chromiumManifest)
        }
        let source = try signingKeySource()
        try pack { () throws(PackError) in try source.check(for: package) }
        if args.has(InstallVerbOptions.dryRun), case .machine(let path) = source, (try? FileSystem.status(path)) == nil
        {
            context.writeErr(
                "would make this machine's signing key \(path), then write a CRX signed with it and an "
                    + "External Extensions file naming it (the id is known once the key exists)")
            return nil
        }
        // A bridge's CRX lives in its own host folder; the built-in one beside the receipt.
        let folderOfCRX: String
        if let bridge {
            folderOfCRX = Installer.hostFolder(
                home: try home, environment: context.environment, hostName: bridge.hostName)
        } else {
            folderOfCRX = FileSystem.parentPath(try receiptPath())
        }
        let packed = try pack { () throws(PackError) in
            try PackedExtension.make(
                package, signedBy: source, crxFolder: folderOfCRX, searchPath: context.environment["PATH"])
        }
        if packed.createdKey != nil { saidMadeKey(source.path, chromiumID: packed.chromiumID) }
        return packed
    }

    /// `--key`, else a generated project's key with `--config`, else the machine's key (made on
    /// first use, and only for ExtensionBridge's own extension: `SigningKeySource`).
    func signingKeySource() throws(CLIError) -> SigningKeySource {
        if let given = args[InstallVerbOptions.key] { return .file(given) }
        if let configPath = configPath() {
            return .file(FileSystem.parentPath(configPath) + "/keys/extension-private-key.pem")
        }
        return .machine(ExtensionKey.machineKeyPath(home: try home, environment: context.environment))
    }

    /// Says that the machine's key was made now: a new id, to be kept.
    func saidMadeKey(_ path: String, chromiumID: String) {
        context.writeErr(
            "made this machine's signing key \(path) (Chromium id \(chromiumID)); keep it and back it up: "
                + "every later CRX must be signed with it to update the installed one")
    }

    /// The built-in bridge's extension folder, found the way `identity()` finds it: the first
    /// candidate with a `manifest.json` (or `--extension-dir` as given).
    func extensionFolder() throws(CLIError) -> String {
        let candidates = extensionDirectoryCandidates()
        if args.has(BrowserOptions.extensionDirectory), let given = candidates.first { return given }
        for candidate in candidates
        where (try? FileSystem.status(candidate + "/manifest.json", followLinks: true)) != nil {
            return candidate
        }
        throw CLIError(
            .missing,
            "no extension folder found (looked in \(candidates.joined(separator: ", "))); pass --extension-dir DIR "
                + "or --config bridge.json")
    }

    /// What `--crx` did, in words: which browsers install it when, and where the others get it.
    private func explainPacked(_ packed: PackedExtension, _ options: InstallOptions) {
        let takers = options.browsers.filter(\.readsExternalExtensions).map(\.displayName)
        if !takers.isEmpty && !Platform.isMacOS {
            context.writeErr(
                "\(takers.joined(separator: ", ")): the extension (id \(packed.chromiumID), version \(packed.version)) "
                    + "installs at the browser's next start, enabled; restart the browser if it is running")
        }
        let chrome = options.browsers.filter { $0.family == .chromium && !$0.readsExternalExtensions }
        if !chrome.isEmpty {
            context.writeErr(
                "\(chrome.map(\.displayName).joined(separator: ", ")): installs extensions only from the Chrome Web "
                    + "Store (docs/SHIPPING.md); the host allows the store's id once installed with --extension-id ID")
        }
        if options.browsers.contains(where: { $0.family == .firefox }) {
            context.writeErr(
                "Firefox: installs only add-ons signed by Mozilla for one user: the add-on from addons.mozilla.org "
                    + "or a signed .xpi (docs/SHIPPING.md); Debian's firefox-esr gets it for every user from the "
                    + "Debian package")
        }
    }

    func uninstall() throws(CLIError) {
        let selection = args[BrowserOptions.browser] == nil ? nil : try browsers()
        let prefix = userDataDirectory()
        let installer = try installer()
        let results: [(String, Installer.Outcome)]
        do {
            results = try installer.uninstall(browsers: selection, folderPrefix: prefix)
        } catch {
            throw CLIError(.io, error.description)
        }
        try report(results)
        if !args.json && results.isEmpty { context.writeErr("nothing to uninstall: the receipt lists no such files") }
    }

    func doctor() throws(CLIError) -> Int32 {
        if args.has(BrowserOptions.system), args.has(BrowserOptions.userDataDirectory) {
            throw .usage("--system and --user-data-dir name different folders; give one", verb: "doctor")
        }
        let home = try home
        // The extension install --crx installed (its id is this machine's key's) is ours too.
        let identity = try installer().keepingInstalledExtensions(try identity())
        var bridges = [
            Installer.InstalledBridge(hostName: try hostName(), identity: identity, configPath: configPath())
        ]
        if args[BrowserOptions.config] == nil && args[BrowserOptions.hostName] == nil {
            // Every other bridge installed for this user, by its receipt; the
            // built-in one too unless only others are installed.
            let folder = Installer.receiptsFolder(home: home, environment: context.environment)
            let others = Installer.installedBridges(receiptsFolder: folder).filter {
                $0.hostName != bridges[0].hostName
            }
            let builtInReceipt = Installer.defaultReceiptPath(home: home, environment: context.environment)
            if !others.isEmpty && (try? FileSystem.status(builtInReceipt)) == nil { bridges = [] }
            bridges += others
        }
        var checks: [DoctorCheck] = []
        for bridge in bridges {
            checks += try doctorChecks(home: home, bridge: bridge)
        }
        checks.append(Doctor.suiteCheck(try args.container(context), tool: SuiteCommands.tool(context)))
        let broken = checks.contains { $0.status == .error }
        let secrets = secretsCheck()
        if args.json {
            try context.print(
                JSONWriter.prettyString([
                    "ok": .bool(!broken), "summary": .string(Doctor.summary(checks)),
                    "checks": .array(checks.map(\.json)),
                    "secrets": [
                        "status": .string(secrets.ok ? "ok" : "warning"), "backend": .string(secrets.backend),
                        "detail": .string(secrets.detail),
                    ],
                ]))
        } else {
            try printTable(checks)
            try context.print("\nSecrets (\(secrets.backend)): \(secrets.ok ? "ok" : "warning"): \(secrets.detail)")
        }
        return broken ? 1 : 0
    }

    /// Whether `secret` and `getSecret` work for this user: a `list` of the
    /// group's secrets in the CLI's environment (the browser's may differ). A
    /// warning, never a failure: a bridge that stores no secrets needs no keyring.
    private func secretsCheck() -> (ok: Bool, backend: String, detail: String) {
        let groupID = args.suiteID ?? GroupContainer.defaultGroupID
        let store = context.makeSecrets(groupID)
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

    private func doctorChecks(home: String, bridge: Installer.InstalledBridge) throws(CLIError) -> [DoctorCheck] {
        let hostName = bridge.hostName
        var pass: [String: String] = [:]
        for name in [
            EnvironmentVariable.container.name, EnvironmentVariable.group.name, "XDG_DATA_HOME",
            EnvironmentVariable.log.name,
        ] {
            if let value = context.environment[name] { pass[name] = value }
        }
        var selected: [Browser]
        if args[BrowserOptions.browser] != nil || args[BrowserOptions.userDataDirectory] != nil {
            selected = try browsers()
        } else {
            // Detected browsers, and any browser with a manifest of ours somewhere.
            let detector = detector(home: home)
            selected = BrowserCatalog.all.filter { browser in
                detector.isPresent(browser)
                    || HostLocation.all(for: browser, home: home).contains {
                        (try? FileSystem.status($0.manifestPath(hostName: hostName), followLinks: true)) != nil
                    }
            }
        }
        var doctor = Doctor(home: home, hostName: hostName, identity: bridge.identity, passEnvironment: pass)
        doctor.tool = Doctor.toolCommand(executable: Platform.executablePath(), searchPath: context.environment["PATH"])
        // The fix lines name the bridge the way it was installed: its bridge.json, or its host name.
        if let config = bridge.configPath {
            doctor.bridgeArguments = " --config " + config.shellQuoted
            doctor.projectActions = ProjectBuild.actions(configPath: config)
            doctor.reinstallCommand = doctor.tool + " install --config " + config.shellQuoted
            // A project made by `new` installs through its own script, which builds the host first.
            if let script = Self.projectScript("install.sh", besides: config) {
                doctor.installCommand = script
                doctor.reinstallCommand = script
            }
        } else if hostName != HostManifest.defaultName {
            doctor.bridgeArguments = " --host-name " + hostName.shellQuoted
        }
        guard !selected.isEmpty else {
            // Still a diagnosis: the row that says why, and the built-in host install would register.
            let host = bridge.configPath == nil && hostName == HostManifest.defaultName ? defaultHost() : nil
            return [doctor.noBrowserCheck()] + (host.map { [doctor.hostCheck(hostPath: $0)] } ?? [])
        }
        return doctor.run(
            browsers: selected, userDataDirectory: userDataDirectory(),
            systemOnly: args.has(BrowserOptions.system))
    }

    /// The host `install` would register without `--host-path`, if one is there.
    private func defaultHost() -> String? {
        let candidates = Platform.executablePath().map(BrowserCommands.defaultHostCandidates) ?? []
        return candidates.first(where: FileSystem.isExecutable)
    }

    private func printTable(_ checks: [DoctorCheck]) throws(CLIError) {
        let shown = checks.filter { $0.status != .absent || args.has(DoctorVerbOptions.all) }
        let browserWidth = max(7, shown.map(\.browser.count).max() ?? 0)
        try context.print(pad("BROWSER", browserWidth) + "  " + pad("WHERE", 7) + "  " + pad("STATUS", 7) + "  DETAIL")
        for check in shown {
            try context.print(
                pad(check.browser, browserWidth) + "  " + pad(check.scope, 7) + "  " + pad(check.status.rawValue, 7)
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

    private func report(_ results: [(String, Installer.Outcome)]) throws(CLIError) {
        for (path, outcome) in results {
            if args.json {
                try context.print(JSONWriter.string(["path": .string(path), "outcome": .string(outcome.rawValue)]))
            } else {
                try context.print(pad(outcome.rawValue, 9) + " " + path)
            }
        }
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    private func currentDirectory() -> String? { FileSystem.currentDirectory() }
}
