import BridgeJSON
import BridgeProtocol
import BridgeSystem
import BrowserSupport

/// The options `install`, `uninstall`, `doctor` and `pack` share (`BrowserOptions`), resolved into
/// the values the library takes: HOME, the browsers, the bridge and its extension's ids.
struct BrowserInputs {
    let context: CLIContext
    let args: Invocation

    var home: String {
        get throws(CLIError) {
            guard let home = context.environment["HOME"] else {
                throw CLIError(.io, "HOME is not set; set it to the home folder whose browsers you mean")
            }
            // Everything found from HOME (manifests, receipts, the machine key) is recorded or reused later,
            // from any folder: a relative HOME would name other files in each.
            guard home.hasPrefix("/") else { throw CLIError.relativeHome(home) }
            return home
        }
    }

    /// `--browser`: names, `all`, or `detected` (the default).
    func browsers() throws(CLIError) -> [Browser] {
        let home = try home
        let requested = args[BrowserOptions.browser].map { $0.split(separator: ",").map(String.init) }
        if requested == nil, args[BrowserOptions.userDataDirectory] != nil,
            let chromium = BrowserCatalog.named("chromium")
        {
            return [chromium]
        }
        var out: [Browser] = []
        for name in requested ?? ["detected"] {
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

    /// Where the built-in bridge's extension folder is looked for: `--extension-dir`, else `ToolLayout`'s.
    func extensionDirectoryCandidates() -> [String] {
        if let dir = args[BrowserOptions.extensionDirectory] { return [dir] }
        return ToolLayout.extensionFolderCandidates(executable: Platform.executablePath())
    }

    func installer() throws(CLIError) -> Installer {
        // The package's files are looked for in the staging folder, a test's fake root, or the system.
        let root = args[InstallVerbOptions.destination] ?? context.environment[EnvironmentVariable.detectRoot] ?? ""
        return Installer(home: try home, receiptPath: try receiptPath(), packaged: PackagedFiles(root: root))
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

    /// Says that the machine's key was made now: a new id, to be kept. `byInstall`: install recorded
    /// it in its receipt, so `uninstall --remove-key` would remove it, and the line says so.
    func saidMadeKey(_ path: String, chromiumID: String, byInstall: Bool = false) {
        context.writeErr(
            "made this machine's signing key \(path) (Chromium id \(chromiumID)); keep it and back it up: "
                + "every later CRX must be signed with it to update the installed one"
                + (byInstall ? " (uninstall keeps it; uninstall --remove-key removes it)" : ""))
    }

    /// The built-in bridge's extension folder, found the way `identity()` finds it: the first
    /// candidate with a `manifest.json` (or `--extension-dir` as given).
    func extensionFolder() throws(CLIError) -> String {
        let candidates = extensionDirectoryCandidates()
        if args.has(BrowserOptions.extensionDirectory), let given = candidates.first { return given }
        if let found = ToolLayout.firstExtensionFolder(candidates) { return found }
        throw CLIError(
            .missing,
            "no extension folder found (looked in \(candidates.joined(separator: ", "))); pass --extension-dir DIR "
                + "or --config bridge.json")
    }

    func printOutcomes(_ results: [(String, Installer.Outcome)]) throws(CLIError) {
        for (path, outcome) in results {
            if args.json {
                try context.print(JSONWriter.string(["path": .string(path), "outcome": .string(outcome.rawValue)]))
            } else {
                try context.print(pad(outcome.rawValue, 9) + " " + path)
            }
        }
    }

    func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    func currentDirectory() -> String? { FileSystem.currentDirectory() }
}
