import BridgeJSON
import BridgeProtocol
import BridgeSystem
import BrowserSupport

/// `pack --deb`: one Debian package layout for every bridge, the built-in one and each made by `new`.
///
/// | what | where |
/// |---|---|
/// | the host (static) and its configuration | `/usr/lib/extension-bridge/` (built-in), `/usr/lib/<host name>/` |
/// | the host manifests, every browser in the catalog | their system folders; those in `/etc` are links into `/usr/share/<package>/native-messaging-hosts` (generated files, not configuration: `dpkg -r` removes them) |
/// | the extension | `/usr/share/<package>/extension`, linked into `/usr/share/chromium/extensions/<package>` and Firefox's system add-on folder |
/// | `/etc/firefox-esr/<package>.js` | the one conffile: Firefox scans its system add-on folder at start-up |
/// | the built-in only | `/usr/bin/extension-bridge`, its man page and completions |
extension PackCommand {
    /// Builds the package into `out` and returns its path.
    func debian(out: String) throws(CLIError) -> String {
        let browser = BrowserInputs(context: context, args: args)
        let bridge = try browser.bridge()
        let builtIn = bridge == nil
        let maintainer = try pack { () throws(PackError) in
            try DebianPackage.maintainer(of: bridge, environment: context.environment)
        }
        let hostName = bridge?.hostName ?? HostManifest.defaultName
        let name: String
        if let bridge {
            name = try pack { () throws(PackError) in try DebianPackage.packageName(ofBridge: bridge.debianName) }
        } else {
            name = DebianPackage.extensionBridgeName
        }
        let hostFolder = bridge.map { Installer.systemHostFolder(hostName: $0.hostName) } ?? "/usr/lib/extension-bridge"
        let hostPath = hostFolder + "/" + (bridge?.hostProduct ?? "extension-bridge-host")
        let hostSource: String
        if let bridge, let configPath = browser.configPath() {
            hostSource = try browser.builtBridgeHost(bridge, configPath: configPath)
        } else {
            hostSource = try browser.hostPath()
        }
        let host = try read(hostSource, limit: 256 << 20)
        guard ELFExecutable.isStatic(host) else {
            throw CLIError(.data, PackError.dynamicHost(path: hostSource).description)
        }
        let folder: String
        if let bridge { folder = bridge.extensionFolder } else { folder = try browser.extensionFolder() }
        let package = try pack { () throws(PackError) in
            try ExtensionPackage(extensionDirectory: folder, chromiumManifest: bridge?.chromiumManifest)
        }
        let identity = try browser.identity()  // with --extension-id
        guard let geckoID = identity.firefoxIDs.first else {
            throw CLIError(.data, PackError.noFirefoxID(path: folder + "/manifest.json").description)
        }

        var deb = DebianPackage(
            control: DebianPackage.Control(
                name: name, version: bridge?.version ?? BridgeVersion.current,
                architecture: try architecture(),
                maintainer: maintainer,
                summary: builtIn
                    ? "native-messaging host and settings tool for web extensions"
                    : "browser extension and native-messaging host of \(bridge?.name ?? name)",
                paragraphs: builtIn
                    ? [
                        "ExtensionBridge lets a web extension talk to native code in Chromium-family browsers and "
                            + "Firefox through native messaging, the way a Safari Web Extension talks to its "
                            + "containing app: extension-bridge-host answers the extension from a shared settings "
                            + "suite that the extension-bridge command writes, and keeps a queue of what the "
                            + "extension saved.",
                        "The package registers the host with every supported browser through its system manifest "
                            + "folder, and installs the extension for every user of Debian's chromium and "
                            + "firefox-esr: it is there at the next start of the browser, without developer mode.",
                    ]
                    : [
                        "The browser extension of \(bridge?.name ?? name) for Debian's chromium and firefox-esr, "
                            + "installed for every user at the browser's next start, and the native-messaging host "
                            + "it talks to, registered with every supported browser."
                    ],
                enhances: ["chromium", "firefox-esr"],
                // install --crx and pack sign with openssl; secret and getSecret run secret-tool.
                suggests: builtIn ? ["openssl", "libsecret-tools"] : []))

        // The host and its configuration; the manifests, from the catalog, as `install --system` writes them.
        deb.add(hostPath, host, mode: 0o755, strip: true)
        let plan: [PlannedFile]
        do {
            plan = try Installer(home: "/nonexistent", receiptPath: "/nonexistent/receipt.json").plan(
                InstallOptions(
                    browsers: BrowserCatalog.all, system: true, hostName: hostName, hostPath: hostPath,
                    identity: identity, group: args.suiteID ?? bridge?.group))
        } catch {
            throw CLIError(.usage, error.description)
        }
        let shared = "/usr/share/\(name)/native-messaging-hosts"
        var sharedCopies: [String: [UInt8]] = [:]
        for file in plan {
            if case .manifest = file.kind, file.path.hasPrefix("/etc/") {
                // Every Chromium-family manifest is the same file: one copy, linked from each /etc folder.
                let copy = shared + "/" + FileSystem.lastComponent(file.path)
                if let existing = sharedCopies[copy], existing != file.bytes {
                    throw CLIError(.software, "\(file.path) differs from the other manifests named \(copy)")
                }
                sharedCopies[copy] = file.bytes
                deb.add(copy, file.bytes)
                deb.link(file.path, to: copy)
            } else if file.kind == .configuration {
                // install's header would tell the reader to run install; this file is the package's.
                deb.add(file.path, try packagedConfiguration(file.bytes, package: name))
            } else {
                deb.add(file.path, file.bytes)
            }
        }

        // The extension, for every user of Debian's chromium and firefox-esr.
        let extensionFolder = "/usr/share/\(name)/extension"
        for entry in package.files { deb.add(extensionFolder + "/" + entry.path, entry.bytes) }
        deb.add(extensionFolder + "/manifest.json", package.manifestBytes)
        // An extension with a manifest of Chromium's own (a Manifest V2 import) gets a folder of its own there.
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

        if builtIn {
            guard let cli = Platform.executablePath() else {
                throw CLIError(.software, "cannot find this extension-bridge binary to package it")
            }
            deb.add("/usr/bin/extension-bridge", try read(cli, limit: 256 << 20), mode: 0o755, strip: true)
            deb.add(
                "/usr/share/man/man1/extension-bridge.1.gz", try gzip(Array(ManPage.render(BridgeCLI.commands).utf8)))
            deb.add(
                "/usr/share/bash-completion/completions/extension-bridge",
                Array(CompletionScripts.bash(BridgeCLI.commands).utf8))
            deb.add(
                "/usr/share/zsh/vendor-completions/_extension-bridge",
                Array(CompletionScripts.zsh(BridgeCLI.commands).utf8))
            deb.add(
                "/usr/share/fish/vendor_completions.d/extension-bridge.fish",
                Array(CompletionScripts.fish(BridgeCLI.commands).utf8))
        }

        // Debian policy: copyright, changelog; lintian overrides with their reasons.
        let year = String(WallTime(seconds: Int64(timestamp())).rfc2822.split(separator: " ")[3])
        let holder =
            bridge?.copyright
            ?? (builtIn ? "\(year) ExtensionBridge contributors" : "\(year) \(deb.control.maintainer)")
        let date = WallTime(seconds: Int64(timestamp())).rfc2822
        let changes = try args[PackVerbOptions.changelog].map { path throws(CLIError) in
            String(decoding: try read(path, limit: 4 << 20), as: UTF8.self)
        }
        // The changelog checks the control first: a bad maintainer is named as the maintainer, not
        // as the copyright holder made from it.
        let (changelog, copyright) = try pack { () throws(PackError) in
            (
                try deb.changelog(
                    date: date, builtWith: BridgeVersion.current,
                    notes: try changes.map { text throws(PackError) in
                        try ReleaseNotes(markdown: text, version: deb.control.version)
                    }),
                try DebianPackage.copyright(bridgeName: bridge?.name, holder: holder)
            )
        }
        deb.add("/usr/share/doc/\(name)/copyright", copyright)
        deb.add("/usr/share/doc/\(name)/changelog.gz", try gzip(changelog))
        var overrides = """
            # Google Chrome, Microsoft Edge, Brave and Vivaldi read system native-messaging hosts only there.
            \(name): dir-or-file-in-etc-opt *
            # Static on purpose: no Swift runtime package exists in Debian to depend on, and a browser pays the
            # start-up of the host on every message (dynamic linking of the Swift runtime is most of it).
            \(name): statically-linked-binary *

            """
        if builtIn {
            overrides += """
                # install reads its own package's file list (/var/lib/dpkg/info/extension-bridge.list), read-only,
                # so it never writes or removes a file the package owns; a dpkg-query process per install could
                # not be pointed at the temporary root the tests install into.
                \(name): uses-dpkg-database-directly [usr/bin/extension-bridge]

                """
        }
        deb.add("/usr/share/lintian/overrides/\(name)", Array(overrides.utf8))
        do {
            return try deb.build(into: out, timestamp: timestamp(), searchPath: context.environment["PATH"])
        } catch {
            throw CLIError(CLIError.Kind(rawValue: error.exitStatus) ?? .software, error.description)
        }
    }

    /// The host configuration `install` planned, said to be the package's: dpkg puts it back at every
    /// upgrade, so a change belongs in the package (`--extension-id`, bridge.json's group).
    private func packagedConfiguration(_ planned: [UInt8], package: String) throws(CLIError) -> [UInt8] {
        do {
            let (configuration, _) = try HostConfiguration.parse(String(decoding: planned, as: UTF8.self))
            return Array(
                try configuration.text(
                    writtenBy: "part of the \(package) package, made by `extension-bridge pack --deb`; "
                        + "an upgrade replaces it: change the package instead"
                ).utf8)
        } catch {
            throw CLIError(.software, "the packaged host configuration: \(error)")
        }
    }

    /// `SOURCE_DATE_EPOCH` (reproducible builds), else now.
    private func timestamp() -> Int {
        if let text = context.environment["SOURCE_DATE_EPOCH"], let value = Int(text), value >= 0 { return value }
        return Int(WallTime.now().seconds)
    }

    private func architecture() throws(CLIError) -> String {
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(
                "/usr/bin/dpkg", arguments: ["--print-architecture"], environment: ["PATH": "/usr/bin:/bin"],
                workingDirectory: nil, input: [], timeoutMilliseconds: 30_000)
        } catch {
            throw CLIError(.unavailable, PackError.toolMissing(name: "dpkg", package: "dpkg").description)
        }
        let text = String(String(decoding: result.stdout, as: UTF8.self).filter { !$0.isWhitespace })
        guard result.status == 0, !text.isEmpty else {
            throw CLIError(.unavailable, "dpkg --print-architecture failed; is this a Debian system?")
        }
        return text
    }

    private func read(_ path: String, limit: Int) throws(CLIError) -> [UInt8] {
        do {
            return try FileSystem.readFile(path, limit: limit)
        } catch {
            throw CLIError(.io, "cannot read \(path): \(error)")
        }
    }

    /// `gzip -9n`: no name or time in the header, as Debian policy asks of documentation.
    private func gzip(_ bytes: [UInt8]) throws(CLIError) -> [UInt8] {
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(
                "/bin/gzip", arguments: ["-9n", "-c"], environment: ["PATH": "/usr/bin:/bin"], workingDirectory: nil,
                input: bytes, timeoutMilliseconds: 60_000)
        } catch {
            throw CLIError(.unavailable, PackError.toolMissing(name: "gzip", package: "gzip").description)
        }
        guard result.status == 0 else { throw CLIError(.software, "gzip failed (exit \(result.status))") }
        return result.stdout
    }
}
