import BridgeJSON
import BridgeProtocol
import BridgeSystem

/// One `doctor` run: which bridges and browsers it looks at, how each bridge's fix lines name it,
/// the rows, and the exit status. The CLI resolves its options into this and prints the rows.
public struct DoctorRun {
    public var home: String
    /// The CLI's environment: what the host is started with, PATH (fix lines, detection) and the
    /// detection root.
    public var environment: Environment
    /// The bridge named on the command line (`--config`, `--host-name`), or the built-in one.
    public var bridge: Installer.InstalledBridge
    /// Whether `--config` or `--host-name` named `bridge`: then only it is checked; otherwise every
    /// bridge installed for this user (by its receipt) is checked too.
    public var onlyNamedBridge: Bool
    /// The browsers given (`--browser`, `--user-data-dir`); nil for the detected ones plus any
    /// browser with a manifest of the bridge somewhere.
    public var browsers: [Browser]?
    public var userDataDirectory: String?
    /// `--system`: only the system folders.
    public var systemOnly = false
    /// This program's path: fix lines name it when `extension-bridge` on PATH is another program,
    /// and the built-in host is looked for beside it.
    public var executable: String?
    /// Why the extension's folder was not found (the message that names where doctor looked), or nil.
    /// Doctor still runs every check, against the ids install recorded (`recordedIdentity`), and
    /// reports the missing folder as a row of its own.
    public var extensionFolderProblem: String?

    public init(
        home: String, environment: Environment, bridge: Installer.InstalledBridge, onlyNamedBridge: Bool,
        browsers: [Browser]?, userDataDirectory: String?
    ) {
        self.home = home
        self.environment = environment
        self.bridge = bridge
        self.onlyNamedBridge = onlyNamedBridge
        self.browsers = browsers
        self.userDataDirectory = userDataDirectory
    }

    /// The variables passed to the host besides HOME and PATH: the ones that choose its suite,
    /// data folder and log, as the browser would pass them from the user's session.
    static let passedVariables = [
        EnvironmentVariable.container.name, EnvironmentVariable.group.name, "XDG_DATA_HOME",
        EnvironmentVariable.log.name,
    ]

    /// The bridges checked: the named one; without a name, the built-in one and every other bridge
    /// with a receipt, or only the others when just they are installed.
    public func bridges() -> [Installer.InstalledBridge] {
        guard !onlyNamedBridge else { return [bridge] }
        let folder = Installer.receiptsFolder(home: home, environment: environment)
        let others = Installer.installedBridges(receiptsFolder: folder).filter { $0.hostName != bridge.hostName }
        let builtInReceipt = Installer.defaultReceiptPath(home: home, environment: environment)
        let builtInInstalled = (try? FileSystem.status(builtInReceipt)) != nil
        return (others.isEmpty || builtInInstalled ? [bridge] : []) + others
    }

    /// The browsers checked for `hostName`: the ones given, else the detected ones (the same
    /// detector `install` uses) and any browser with a manifest of `hostName` in one of this user's
    /// folders. A system manifest alone does not count: the Debian package places one for every
    /// browser it knows, and a browser that is not on this machine has nothing to fix.
    public func selectedBrowsers(hostName: String) -> [Browser] {
        if let browsers { return browsers }
        let detector = BrowserDetector.forEnvironment(home: home, environment: environment)
        return BrowserCatalog.all.filter { browser in
            detector.isPresent(browser)
                || HostLocation.all(for: browser, home: home, systemRoot: systemRoot).contains {
                    $0.scope != .system
                        && (try? FileSystem.status($0.manifestPath(hostName: hostName), followLinks: true)) != nil
                }
        }
    }

    /// The system root doctor reads the system folders under: the detection root (a test's fake
    /// root, a chroot) or "" for the real one. (`install --system` writes to the real one.)
    var systemRoot: String { environment[EnvironmentVariable.detectRoot] ?? "" }

    /// The `Doctor` for one bridge, its fix lines naming the bridge the way it was installed: its
    /// bridge.json (through the project's own install script when `new` wrote one), or its host name.
    public func doctor(for bridge: Installer.InstalledBridge) -> Doctor {
        var pass: [String: String] = [:]
        for name in Self.passedVariables {
            if let value = environment[name] { pass[name] = value }
        }
        var doctor = Doctor(
            home: home, hostName: bridge.hostName, identity: bridge.identity, passEnvironment: pass)
        doctor.tool = Doctor.toolCommand(executable: executable, searchPath: environment["PATH"])
        doctor.systemRoot = systemRoot
        if let config = bridge.configPath {
            doctor.bridgeArguments = " --config " + config.shellQuoted
            doctor.projectActions = ProjectBuild.actions(configPath: config)
            doctor.reinstallCommand = doctor.tool + " install --config " + config.shellQuoted
            // A project made by `new` installs through its own script, which builds the host first.
            if let script = ToolLayout.projectScript("install.sh", besides: config) {
                doctor.installCommand = script
                doctor.reinstallCommand = script
            }
        } else if bridge.hostName != HostManifest.defaultName {
            doctor.bridgeArguments = " --host-name " + bridge.hostName.shellQuoted
        }
        return doctor
    }

    /// The extension ids the receipt at `receiptPath` recorded when install wrote it, or none.
    public static func recordedIdentity(receiptPath: String) -> ExtensionIdentity {
        Installer(home: "", receiptPath: receiptPath).loadBridge()?.identity
            ?? ExtensionIdentity(chromiumIDs: [], firefoxIDs: [])
    }

    /// The row for `extensionFolderProblem`: a warning while the receipt's ids let the manifests be
    /// checked, an error when there are none (doctor cannot tell which extension the host must allow).
    /// The fix is `--extension-dir` with the checkout's folder when this tool was built in one.
    func extensionFolderCheck(_ problem: String) -> DoctorCheck {
        let known = !(bridge.identity.chromiumIDs.isEmpty && bridge.identity.firefoxIDs.isEmpty)
        let tool = Doctor.toolCommand(executable: executable, searchPath: environment["PATH"])
        let fix =
            ToolLayout.checkoutExtensionFolder(executable: executable).map {
                "run `\(tool) doctor --extension-dir \($0.shellQuoted)`"
            } ?? "run `\(tool) doctor --extension-dir DIR`, DIR the folder that holds the extension's manifest.json"
        return DoctorCheck(
            browser: "-", scope: "extension", path: "", status: known ? .warning : .error,
            detail: problem
                + (known
                    ? "; the manifests are checked against the extension ids install recorded"
                    : "; no install recorded the extension's ids, so doctor cannot tell which extension the host "
                        + "must allow"),
            fix: fix)
    }

    /// Every row, bridge by bridge. With no browser it is still a diagnosis: the row that says why,
    /// and for the built-in bridge the host `install` would register.
    public func checks() -> [DoctorCheck] {
        var checks = extensionFolderProblem.map { [extensionFolderCheck($0)] } ?? []
        for bridge in bridges() {
            let doctor = doctor(for: bridge)
            let selected = selectedBrowsers(hostName: bridge.hostName)
            guard !selected.isEmpty else {
                let builtIn = bridge.configPath == nil && bridge.hostName == HostManifest.defaultName
                let host = builtIn ? ToolLayout.installedHost(executable: executable) : nil
                checks += [doctor.noBrowserCheck()] + (host.map { [doctor.hostCheck(hostPath: $0)] } ?? [])
                continue
            }
            checks += doctor.run(browsers: selected, userDataDirectory: userDataDirectory, systemOnly: systemOnly)
        }
        return checks
    }

    /// The groups the hosts named `hostName` that the browsers use serve, in the rows' order, once
    /// each: for each manifest in use, its host's configuration's `group` (`defaultGroup` when it
    /// names none). `install --suite` makes it another group than the CLI's default, and that
    /// group's suite is the one the pages see.
    public static func servedGroups(_ checks: [DoctorCheck], hostName: String, defaultGroup: String) -> [String] {
        var groups: [String] = []
        for check in checks where check.inUse && FileSystem.lastComponent(check.path) == hostName + ".json" {
            guard let bytes = try? FileSystem.readFile(check.path, limit: 1 << 20),
                let host = (try? JSONParser.parse(bytes))?["path"]?.stringValue
            else { continue }
            // The host reads the configuration beside its own executable, links resolved.
            let executable = FileSystem.resolvedPath(host) ?? host
            let configuration =
                FileSystem.parentPath(executable) + "/"
                + HostConfiguration.fileName(forExecutable: FileSystem.lastComponent(executable))
            let text = (try? FileSystem.readFile(configuration, limit: 1 << 20)).map {
                String(decoding: $0, as: UTF8.self)
            }
            let group = text.flatMap { try? HostConfiguration.parse($0).0.group } ?? defaultGroup
            if !groups.contains(group) { groups.append(group) }
        }
        return groups
    }

    /// Doctor's exit status: 1 when a row is an error, else 0 (a warning is not a failure).
    public static func exitStatus(_ checks: [DoctorCheck]) -> Int32 {
        checks.contains { $0.status == .error } ? 1 : 0
    }
}
