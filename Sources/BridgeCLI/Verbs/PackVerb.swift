import BridgeJSON
import BridgeSystem
import BrowserSupport

/// `extension-bridge pack [--config bridge.json | --extension-dir DIR] [--out DIR] [--update-url BASE]
/// [--key PEM] [--deb [--changelog FILE]]`: the release packages of an extension (`ExtensionPackage`),
/// written atomically, or its Debian package (`DebianLayout`).
enum PackVerb: Verb {
    static let spec = CommandSpec(
        ["pack"], section: "Your own bridge", abstract: "write the release packages of the extension",
        discussion: """
            Writes into --out (default ./dist), one line per file: <name>-<version>.zip for the Chrome
            Web Store (the manifest without key, browser_specific_settings and background.scripts),
            <name>-<version>.xpi for Firefox (without key; with gecko.data_collection_permissions,
            {"required": ["none"]} when the manifest has none), and <name>-<version>.crx, that zip
            signed as CRX3 (its Chromium id is the signing key's). Tests, tools, benchmarks,
            package.json, README.md, extension-id.json and dotfiles stay out; a link, any
            file that is not a regular file, and a file holding a private key are refused. The
            same folder and key give the same bytes.
            --update-url BASE (https) also writes updates.xml (Chromium) and updates.json (Firefox)
            and puts BASE/updates.xml into the CRX's manifest as update_url and BASE/updates.json
            into the XPI's gecko.update_url. The key: --key PEM; else with --config the project's
            keys/extension-private-key.pem; else this machine's key (on Linux
            ~/.local/share/extension-bridge/keys/extension-bridge.pem), made on first use, which
            signs ExtensionBridge's own extension only (another needs --key); uninstall keeps a
            key pack signed with. A key file must be a regular file only its owner can read
            (chmod 600). The extension: the
            bridge's with --config, else --extension-dir, the installed copy, or ./extension.
            Needs openssl. --deb writes the Debian package instead (dpkg-deb, strip, md5sum,
            gzip): the static host and its configuration in /usr/lib/<host name>/ (the built-in
            bridge: /usr/lib/extension-bridge/), the system host manifests for every browser in the
            catalog, the extension installed for every user of Debian's chromium and firefox-esr,
            /etc/firefox-esr/<package>.js (a conffile), copyright and changelog (with --changelog FILE,
            the release's entries from FILE's "## [<version>]" section); with --config the
            app's name, version, maintainer and copyright from bridge.json, the host from the
            project's newer build or --host-path (refused unless static), without it
            extension-bridge itself with its man page and completions. A package name of the
            distribution's browsers (chromium, firefox-esr, …), ExtensionBridge's, or one this
            system knows as another maintainer's is refused, as is any control, copyright or
            changelog value that is not one line. Exit 64 usage, 65 a file or
            value breaks a rule, 66 no extension, key or host, 69 no openssl or Debian tool, 74 I/O.
            """,
        options: [
            BrowserOptions.config, BrowserOptions.extensionDirectory, PackVerbOptions.out, PackVerbOptions.updateURL,
            PackVerbOptions.key, PackVerbOptions.deb, PackVerbOptions.hostPath, PackVerbOptions.changelog,
            BrowserOptions.extensionID,
        ])

    static func validate(_ args: Invocation) throws(CLIError) {
        if args.has(BrowserOptions.config) && args.has(BrowserOptions.extensionDirectory) {
            throw .usage("--config and --extension-dir exclude each other (the bridge names its folder)", verb: "pack")
        }
        if args[PackVerbOptions.changelog] != nil && !args.has(PackVerbOptions.deb) {
            throw .usage("--changelog is the Debian package's changelog: it goes with --deb", verb: "pack")
        }
        let storeOption = args[PackVerbOptions.updateURL] != nil || args[PackVerbOptions.key] != nil
        if args.has(PackVerbOptions.deb) && storeOption {
            throw .usage("--deb packages no CRX: --update-url and --key belong to the store packages", verb: "pack")
        }
        // Check what was typed before reading anything or making a key.
        _ = try pack { () throws(PackError) in try args[PackVerbOptions.updateURL].map(UpdateURL.init) }
    }

    static func run(_ args: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let browser = BrowserInputs(context: context, args: args)
        let bridge = try browser.bridge()
        let folder: String
        if let bridge { folder = bridge.extensionFolder } else { folder = try browser.extensionFolder() }
        let out = args[PackVerbOptions.out] ?? "dist"
        let cwd = FileSystem.currentDirectory() ?? "/"
        if ExtensionPackage.isInside(out, folder, from: cwd) {
            throw .usage(
                "--out \(out) is inside the extension folder \(folder): the next pack would pack the packages; "
                    + "choose a folder outside it", verb: "pack")
        }
        if args.has(PackVerbOptions.deb) {
            let deb = try debian(browser, bridge: bridge, folder: folder, out: out)
            try context.print(args.json ? JSONWriter.string(["kind": "deb", "path": .string(deb)]) : "wrote \(deb)")
            return 0
        }
        var package = try pack { () throws(PackError) in
            try ExtensionPackage(extensionDirectory: folder, chromiumManifest: bridge?.chromiumManifest)
        }
        // A bridge's packages carry its one name (`readlater-1.0.0.crx`, as `readlater-host` and the
        // `readlater` Debian package), not one made from the manifest's display name.
        if let bridge { package.slug = bridge.fileName }
        if !package.leftOut.isEmpty {
            context.writeErr(
                "pack: left out of the packages as developer files: "
                    + package.leftOut.map { DisplayText.escaped($0) }.joined(separator: ", ")
                    + " (rename any your extension loads; docs/SHIPPING.md)")
        }
        let updateURL = try pack { () throws(PackError) in try args[PackVerbOptions.updateURL].map(UpdateURL.init) }
        let source = try browser.signingKeySource()
        let (files, key, createdKey) = try pack { () throws(PackError) in
            try package.releaseFiles(
                updateURL: updateURL, signedBy: source, chromiumID: bridge?.chromiumID,
                searchPath: context.environment["PATH"])
        }
        if createdKey { browser.saidMadeKey(source.path, chromiumID: key.chromiumID) }
        // A key that signed a package may sign a release: uninstall must leave it from now on.
        let home = try browser.home
        let receipt = Installer.defaultReceiptPath(home: home, environment: context.environment)
        do {
            try Installer(home: home, receiptPath: receipt).keepSigningKey(
                FileSystem.absolutePath(source.path, from: cwd))
            try FileSystem.makeDirectories(out, permissions: 0o755)
        } catch let error as InstallError {
            throw CLIError(error.exitKind, error.description)
        } catch {
            throw CLIError(.io, "cannot make the output folder: \(error)")
        }
        for file in files {
            let path = out + "/" + file.name
            do {
                try FileSystem.writeAtomically(path, file.bytes, permissions: 0o644)
            } catch {
                throw CLIError(.io, "cannot write \(path): \(error)")
            }
            guard args.json else {
                try context.print("wrote \(path) (\(file.bytes.count) bytes)")
                continue
            }
            var record: [String: JSONValue] = [
                "kind": .string(file.kind), "path": .string(path), "bytes": .int(file.bytes.count),
                "sha256": .string(FileSystem.hex(SHA256.digest(file.bytes))), "version": .string(package.version),
            ]
            if file.kind == "crx" { record["chromiumID"] = .string(key.chromiumID) }
            if file.kind == "xpi", let id = package.firefoxID { record["firefoxID"] = .string(id) }
            try context.print(JSONWriter.string(.object(record)))
        }
        return 0
    }

    /// `--deb`: reads what `DebianLayout` packages, and builds the package into `out`; its path.
    static func debian(_ browser: BrowserInputs, bridge: BridgeDescription?, folder: String, out: String)
        throws(CLIError) -> String
    {
        let args = browser.args
        let environment = browser.context.environment
        let maintainer = try pack { () throws(PackError) in
            try DebianPackage.maintainer(of: bridge, environment: environment)
        }
        _ = try pack { () throws(PackError) in try DebianLayout.packageName(of: bridge) }
        let hostSource: String
        if let bridge, let configPath = browser.configPath() {
            hostSource = try browser.builtBridgeHost(bridge, configPath: configPath)
        } else {
            hostSource = try browser.hostPath()
        }
        let host = try read(hostSource)
        try pack { () throws(PackError) in try DebianLayout.requireStatic(host, path: hostSource) }
        let package = try pack { () throws(PackError) in
            try ExtensionPackage(extensionDirectory: folder, chromiumManifest: bridge?.chromiumManifest)
        }
        let subject: DebianLayout.Subject
        if let bridge {
            subject = .bridge(bridge)
        } else {
            guard let program = Platform.executablePath() else {
                throw CLIError(.software, "cannot find this extension-bridge binary to package it")
            }
            subject = .builtIn(
                DebianLayout.BuiltInFiles(
                    program: try read(program), manPage: Array(ManPage.render(args.commands).utf8),
                    bashCompletion: Array(CompletionScripts.bash(args.commands).utf8),
                    zshCompletion: Array(CompletionScripts.zsh(args.commands).utf8),
                    fishCompletion: Array(CompletionScripts.fish(args.commands).utf8)))
        }
        let layout = DebianLayout(
            subject: subject, maintainer: maintainer, host: host, hostSource: hostSource, extensionPackage: package,
            identity: try browser.identity(), group: args.suiteID,
            architecture: try pack(DebianLayout.machineArchitecture), timestamp: DebianLayout.timestamp(environment),
            releaseNotes: try args[PackVerbOptions.changelog].map { (path) throws(CLIError) in
                String(decoding: try read(path, limit: 4 << 20), as: UTF8.self)
            })
        return try pack { () throws(PackError) in
            try layout.package().build(into: out, timestamp: layout.timestamp, searchPath: environment["PATH"])
        }
    }

    static func read(_ path: String, limit: Int = 256 << 20) throws(CLIError) -> [UInt8] {
        do {
            return try FileSystem.readFile(path, limit: limit)
        } catch {
            throw CLIError(.io, "cannot read \(path): \(error)")
        }
    }
}
