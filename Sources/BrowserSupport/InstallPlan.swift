import BridgeSystem

/// One `install`, from resolved inputs: the files it writes (under a `--destdir` staging folder
/// when given), whether they can be written, writing them with a receipt, and what to tell the
/// user afterwards. The CLI resolves options into `options` and prints; this decides.
public struct InstallPlan {
    public let installer: Installer
    public private(set) var options: InstallOptions
    /// `--destdir`: the files are staged under it for a package, and no receipt is written (the
    /// package manager owns them).
    public var destination: String?
    /// The absolute path of the bridge.json installed (`--config`), recorded in the receipt.
    public var configPath: String?

    public init(installer: Installer, options: InstallOptions, destination: String? = nil, configPath: String? = nil) {
        self.installer = installer
        self.options = options
        self.destination = destination
        self.configPath = configPath
    }

    /// Adds the packed extension (`--crx`): its CRX and External Extensions files are written, and
    /// the host allows its id.
    public mutating func add(_ packed: PackedExtension) {
        options.packedExtension = packed
        if !options.identity.chromiumIDs.contains(packed.chromiumID) {
            options.identity.chromiumIDs.append(packed.chromiumID)
        }
    }

    /// The files to write, under `destination` when staging. Throws for options that cannot be
    /// installed together (a usage error).
    public func files() throws(InstallError) -> [PlannedFile] {
        let plan = try installer.plan(options)
        guard let destination else { return plan }
        return plan.map { PlannedFile(path: destination + $0.path, bytes: $0.bytes, kind: $0.kind) }
    }

    /// Refuses, before anything is made, files that are not ours to change (`Installer.check`):
    /// `--crx` calls it before making a signing key, so a refused install makes no key.
    public func check() throws(InstallError) {
        if destination == nil { try installer.requireTrustedReceipt() }
        try installer.check(try files())
    }

    /// Writes `files()` and, unless staging, records each in the receipt as it is written.
    public func apply() throws(InstallError) -> [(PlannedFile, Installer.Outcome)] {
        try installer.apply(
            try files(),
            bridge: Installer.InstalledBridge(
                hostName: options.hostName, identity: options.identity, configPath: configPath),
            recordReceipt: destination == nil)
    }

    /// What to say once `results` are written, line by line: for `--crx`, which browsers install the
    /// extension when and where the others get it; then what happened, naming the program as a fix
    /// line does (`tool`, from `Doctor.toolCommand`) so the command it suggests runs as printed.
    public func closingLines(results: [(PlannedFile, Installer.Outcome)], tool: String) -> [String] {
        var lines = options.packedExtension.map(packedLines) ?? []
        if let destination {
            lines.append("staged the system install under \(destination) (no receipt: the package owns the files)")
        } else if results.contains(where: { $0.1 == .written }) {
            let what = options.hostName == HostManifest.defaultName ? "the host" : options.hostName
            lines.append(
                "installed \(what) for \(options.browsers.map(\.id).joined(separator: ", ")); check with "
                    + "`\(tool) doctor`")
        } else {
            lines.append("already installed: nothing changed")
        }
        return lines
    }

    /// What `--crx` did, in words: which browsers install it when, and where the others get it.
    func packedLines(_ packed: PackedExtension) -> [String] {
        var lines: [String] = []
        let takers = options.browsers.filter(\.readsExternalExtensions).map(\.displayName)
        if !takers.isEmpty && !Platform.isMacOS {
            lines.append(
                "\(takers.joined(separator: ", ")): the extension (id \(packed.chromiumID), version \(packed.version)) "
                    + "installs at the browser's next start, enabled; restart the browser if it is running")
        }
        let chrome = options.browsers.filter { $0.family == .chromium && !$0.readsExternalExtensions }
        if !chrome.isEmpty {
            lines.append(
                "\(chrome.map(\.displayName).joined(separator: ", ")): installs extensions only from the Chrome Web "
                    + "Store (docs/SHIPPING.md); the host allows the store's id once installed with --extension-id ID")
        }
        if options.browsers.contains(where: { $0.family == .firefox }) {
            lines.append(
                "Firefox: installs only add-ons signed by Mozilla for one user: the add-on from addons.mozilla.org "
                    + "or a signed .xpi (docs/SHIPPING.md); Debian's firefox-esr gets it for every user from the "
                    + "Debian package")
        }
        return lines
    }
}
