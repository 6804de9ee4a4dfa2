import BridgeProtocol
import BridgeSystem

/// Where a bridge's Debian package puts each file: one layout for every bridge, the built-in one
/// and each made by `new` (`extension-bridge pack --deb`).
///
/// | what | where |
/// |---|---|
/// | the host (static) and its configuration | `/usr/lib/extension-bridge/` (built-in), `/usr/lib/<host name>/` |
/// | the host manifests, every browser in the catalog | their system folders; those in `/etc` are links into `/usr/share/<package>/native-messaging-hosts` (generated files, not configuration: `dpkg -r` removes them) |
/// | the extension | `/usr/share/<package>/extension`, linked into `/usr/share/chromium/extensions/<package>` and Firefox's system add-on folder |
/// | `/etc/firefox-esr/<package>.js` | the one conffile: Firefox scans its system add-on folder at start-up |
/// | the built-in only | `/usr/bin/extension-bridge`, its man page and completions |
///
/// The layout reads and writes nothing but runs `gzip` (documentation is compressed, as Debian
/// policy asks): the caller reads the host, the extension and the release notes, and builds the
/// returned `DebianPackage`.
public struct DebianLayout: Sendable {
    /// Which bridge is packaged.
    public enum Subject: Sendable {
        /// ExtensionBridge itself, with its settings program.
        case builtIn(BuiltInFiles)
        /// A bridge made by `new`, as its bridge.json describes it.
        case bridge(BridgeDescription)
    }

    /// What only ExtensionBridge's own package installs: the settings program, its man page
    /// (uncompressed: the layout compresses it) and its shell completions.
    public struct BuiltInFiles: Sendable {
        public var program: [UInt8]
        public var manPage: [UInt8]
        public var bashCompletion: [UInt8]
        public var zshCompletion: [UInt8]
        public var fishCompletion: [UInt8]

        public init(
            program: [UInt8], manPage: [UInt8], bashCompletion: [UInt8], zshCompletion: [UInt8],
            fishCompletion: [UInt8]
        ) {
            self.program = program
            self.manPage = manPage
            self.bashCompletion = bashCompletion
            self.zshCompletion = zshCompletion
            self.fishCompletion = fishCompletion
        }
    }

    public var subject: Subject
    /// `Name <email>`: `DebianPackage.maintainer(of:environment:)`.
    public var maintainer: String
    /// The static host executable, and where it was read from (named when it is not static).
    public var host: [UInt8]
    public var hostSource: String
    public var extensionPackage: ExtensionPackage
    /// The callers the host allows: the bridge's ids, or the built-in extension's, plus `--extension-id`.
    public var identity: ExtensionIdentity
    /// The group the host serves; nil: the host's default.
    public var group: String?
    /// `dpkg --print-architecture` of the machine the host was built for.
    public var architecture: String
    /// Seconds since 1970 the changelog and copyright are dated with (`SOURCE_DATE_EPOCH`).
    public var timestamp: Int
    /// A Keep a Changelog file whose section for the version becomes the package's changelog.
    public var releaseNotes: String?

    public init(
        subject: Subject, maintainer: String, host: [UInt8], hostSource: String, extensionPackage: ExtensionPackage,
        identity: ExtensionIdentity, group: String?, architecture: String, timestamp: Int, releaseNotes: String? = nil
    ) {
        self.subject = subject
        self.maintainer = maintainer
        self.host = host
        self.hostSource = hostSource
        self.extensionPackage = extensionPackage
        self.identity = identity
        self.group = group
        self.architecture = architecture
        self.timestamp = timestamp
        self.releaseNotes = releaseNotes
    }

    /// `SOURCE_DATE_EPOCH` (reproducible builds), else now: what a package is dated with.
    public static func timestamp(_ environment: Environment) -> Int {
        if let text = environment["SOURCE_DATE_EPOCH"], let value = Int(text), value >= 0 { return value }
        return Int(WallTime.now().seconds)
    }

    /// The package name of `bridge` (nil: the built-in one).
    /// - Throws: `PackError.debianControl` for a name `DebianPackage.packageName(ofBridge:)` refuses.
    public static func packageName(of bridge: BridgeDescription?) throws(PackError) -> String {
        guard let bridge else { return DebianPackage.extensionBridgeName }
        return try DebianPackage.packageName(ofBridge: bridge.debianName)
    }

    /// Where the package puts the host: `/usr/lib/<host name>/<host product>`, or the built-in
    /// `/usr/lib/extension-bridge/extension-bridge-host`.
    public static func hostPath(of bridge: BridgeDescription?) -> String {
        guard let bridge else { return "/usr/lib/extension-bridge/extension-bridge-host" }
        return Installer.systemHostFolder(hostName: bridge.hostName) + "/" + bridge.hostProduct
    }

    /// Refuses a host that needs shared libraries: other machines lack the Swift runtime.
    public static func requireStatic(_ host: [UInt8], path: String) throws(PackError) {
        guard ELFExecutable.isStatic(host) else { throw .dynamicHost(path: path) }
    }

    var bridge: BridgeDescription? {
        if case .bridge(let bridge) = subject { return bridge }
        return nil
    }

    /// The package, ready to build (`DebianPackage.build`).
    /// - Throws: what `packageName(of:)` and `requireStatic` throw; `.noFirefoxID` for an extension
    ///   without one (Firefox's system folder is named by it); `.registration` for a host name or
    ///   group a manifest or configuration cannot hold; `.debianControl` for a changelog or copyright
    ///   value Debian refuses; `.toolMissing` / `.toolFailed` for gzip.
    public func package() throws(PackError) -> DebianPackage {
        let name = try DebianLayout.packageName(of: bridge)
        try DebianLayout.requireStatic(host, path: hostSource)
        guard let geckoID = identity.firefoxIDs.first else {
            throw .noFirefoxID(path: extensionPackage.extensionDirectory + "/manifest.json")
        }
        var deb = DebianPackage(control: control(name: name))
        deb.add(DebianLayout.hostPath(of: bridge), host, mode: 0o755, strip: true)
        try addRegistration(to: &deb)
        addExtension(to: &deb, geckoID: geckoID)
        if case .builtIn(let files) = subject { try addProgram(files, to: &deb) }
        try addDocuments(to: &deb)
        return deb
    }

    func control(name: String) -> DebianPackage.Control {
        guard let bridge else {
            return DebianPackage.Control(
                name: name, version: BridgeVersion.current, architecture: architecture,
                maintainer: maintainer,
                summary: "native-messaging host and settings tool for web extensions",
                paragraphs: [
                    "ExtensionBridge lets a web extension talk to native code in Chromium-family browsers and "
                        + "Firefox through native messaging, the way a Safari Web Extension talks to its "
                        + "containing app: extension-bridge-host answers the extension from a shared settings "
                        + "suite that the extension-bridge command writes, and keeps a queue of what the "
                        + "extension saved.",
                    "The package registers the host with every supported browser through its system manifest "
                        + "folder, and installs the extension for every user of Debian's chromium and "
                        + "firefox-esr: it is there at the next start of the browser, without developer mode.",
                ],
                enhances: ["chromium", "firefox-esr"],
                // install --crx and pack sign with openssl; secret and getSecret run secret-tool.
                suggests: ["openssl", "libsecret-tools"])
        }
        return DebianPackage.Control(
            name: name, version: bridge.version, architecture: architecture, maintainer: maintainer,
            summary: "browser extension and native-messaging host of \(bridge.name)",
            paragraphs: [
                "The browser extension of \(bridge.name) for Debian's chromium and firefox-esr, "
                    + "installed for every user at the browser's next start, and the native-messaging host "
                    + "it talks to, registered with every supported browser."
            ],
            enhances: ["chromium", "firefox-esr"])
    }

    /// The host's manifests for every browser in the catalog and its configuration, as
    /// `install --system` writes them. Every Chromium-family manifest in `/etc` is the same file:
    /// one copy under `/usr/share`, linked from each folder, so `dpkg -r` removes them.
    func addRegistration(to deb: inout DebianPackage) throws(PackError) {
        let name = deb.control.name
        let hostName = bridge?.hostName ?? HostManifest.defaultName
        let hostPath = DebianLayout.hostPath(of: bridge)
        let manifests: [PlannedFile]
        let configuration: PlannedFile
        do {
            try HostManifest.validate(name: hostName)
            manifests = try HostRegistration.manifests(
                hostName: hostName, hostPath: hostPath, browsers: BrowserCatalog.all, identity: identity
            ) { (browser) throws(InstallError) in .target(for: browser, home: "/", system: true) }
            // install's header would tell the reader to run install; this file is the package's, and
            // dpkg puts it back at every upgrade.
            configuration = try HostRegistration.configuration(
                hostPath: hostPath, identity: identity, group: group ?? bridge?.group, logLevel: nil,
                writtenBy: "part of the \(name) package, made by `extension-bridge pack --deb`; "
                    + "an upgrade replaces it: change the package instead")
        } catch {
            throw .registration(error)
        }
        let shared = "/usr/share/\(name)/native-messaging-hosts"
        var sharedCopies: [String: [UInt8]] = [:]
        for file in manifests {
            guard file.path.hasPrefix("/etc/") else {
                deb.add(file.path, file.bytes)
                continue
            }
            let copy = shared + "/" + FileSystem.lastComponent(file.path)
            if let existing = sharedCopies[copy], existing != file.bytes {
                throw .layout("\(file.path) differs from the other manifests named \(copy)")
            }
            sharedCopies[copy] = file.bytes
            deb.add(copy, file.bytes)
            deb.link(file.path, to: copy)
        }
        deb.add(configuration.path, configuration.bytes)
    }

    /// The extension, for every user of Debian's chromium and firefox-esr; an extension with a
    /// manifest of Chromium's own (a Manifest V2 import) gets a folder of its own for Chromium.
    func addExtension(to deb: inout DebianPackage, geckoID: String) {
        let name = deb.control.name
        let package = extensionPackage
        let extensionFolder = "/usr/share/\(name)/extension"
        for entry in package.files { deb.add(extensionFolder + "/" + entry.path, entry.bytes) }
        deb.add(extensionFolder + "/manifest.json", package.manifestBytes)
        var chromiumFolder = extensionFolder
        if let manifest = package.chromiumManifestBytes {
            chromiumFolder = "/usr/share/\(name)/extension-chromium"
            for entry in package.files { deb.add(chromiumFolder + "/" + entry.path, entry.bytes) }
            deb.add(chromiumFolder + "/manifest.json", manifest)
        }
        deb.link("/usr/share/chromium/extensions/\(name)", to: chromiumFolder)
        deb.link("/usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/\(geckoID)", to: extensionFolder)
        deb.addConffile(
            "/etc/firefox-esr/\(name).js",
            Array(
                """
                // Installed by the \(name) package: scan the system add-on folder
                // (/usr/share/mozilla/extensions) at every start, so a profile that existed
                // before the package sees the add-on at its next start, with access to
                // websites. 8 is the system scope (AddonManager.SCOPE_SYSTEM).
                pref("extensions.startupScanScopes", 8);

                """.utf8))
    }

    /// `/usr/bin/extension-bridge`, its man page and completions.
    func addProgram(_ files: BuiltInFiles, to deb: inout DebianPackage) throws(PackError) {
        deb.add("/usr/bin/extension-bridge", files.program, mode: 0o755, strip: true)
        deb.add("/usr/share/man/man1/extension-bridge.1.gz", try DebianLayout.gzip(files.manPage))
        deb.add("/usr/share/bash-completion/completions/extension-bridge", files.bashCompletion)
        deb.add("/usr/share/zsh/vendor-completions/_extension-bridge", files.zshCompletion)
        deb.add("/usr/share/fish/vendor_completions.d/extension-bridge.fish", files.fishCompletion)
    }

    /// Debian policy's copyright and changelog, and the lintian overrides with their reasons.
    func addDocuments(to deb: inout DebianPackage) throws(PackError) {
        let name = deb.control.name
        let date = WallTime(seconds: Int64(timestamp)).rfc2822
        let year = date.split(separator: " ").dropFirst(3).first.map(String.init) ?? ""
        let holder =
            bridge.map { $0.copyright ?? "\(year) \(deb.control.maintainer)" } ?? "\(year) ExtensionBridge contributors"
        // The changelog checks the control first: a bad maintainer is named as the maintainer, not
        // as the copyright holder made from it.
        let notes = try releaseNotes.map { (text) throws(PackError) in
            try ReleaseNotes(markdown: text, version: deb.control.version)
        }
        let changelog = try deb.changelog(date: date, builtWith: BridgeVersion.current, notes: notes)
        let copyright = try DebianPackage.copyright(bridgeName: bridge?.name, holder: holder)
        deb.add("/usr/share/doc/\(name)/copyright", copyright)
        deb.add("/usr/share/doc/\(name)/changelog.gz", try DebianLayout.gzip(changelog))
        deb.add("/usr/share/lintian/overrides/\(name)", Array(lintianOverrides(name: name).utf8))
    }

    func lintianOverrides(name: String) -> String {
        var overrides = """
            # Google Chrome, Microsoft Edge, Brave and Vivaldi read system native-messaging hosts only there.
            \(name): dir-or-file-in-etc-opt *
            # Static on purpose: no Swift runtime package exists in Debian to depend on, and a browser pays the
            # start-up of the host on every message (dynamic linking of the Swift runtime is most of it).
            \(name): statically-linked-binary *

            """
        if case .builtIn = subject {
            overrides += """
                # install reads its own package's file list (/var/lib/dpkg/info/extension-bridge.list), read-only,
                # so it never writes or removes a file the package owns; a dpkg-query process per install could
                # not be pointed at the temporary root the tests install into.
                \(name): uses-dpkg-database-directly [usr/bin/extension-bridge]

                """
        }
        return overrides
    }

    /// `gzip -9n`: no name or time in the header, as Debian policy asks of documentation.
    static func gzip(_ bytes: [UInt8]) throws(PackError) -> [UInt8] {
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(
                "/bin/gzip", arguments: ["-9n", "-c"], environment: ["PATH": "/usr/bin:/bin"], workingDirectory: nil,
                input: bytes, timeoutMilliseconds: 60_000)
        } catch {
            throw .toolMissing(name: "gzip", package: "gzip")
        }
        guard result.status == 0 else { throw .toolFailed("gzip failed (exit \(result.status))") }
        return result.stdout
    }

    /// This machine's Debian architecture (`dpkg --print-architecture`): the host is built for it.
    /// - Throws: `.toolMissing` without dpkg, `.notDebian` when it answers nothing.
    public static func machineArchitecture() throws(PackError) -> String {
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(
                "/usr/bin/dpkg", arguments: ["--print-architecture"], environment: ["PATH": "/usr/bin:/bin"],
                workingDirectory: nil, input: [], timeoutMilliseconds: 30_000)
        } catch {
            throw .toolMissing(name: "dpkg", package: "dpkg")
        }
        let text = String(String(decoding: result.stdout, as: UTF8.self).filter { !$0.isWhitespace })
        guard result.status == 0, !text.isEmpty else { throw .notDebian }
        return text
    }
}
