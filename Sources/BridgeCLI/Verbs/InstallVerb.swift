import BridgeJSON
import BridgeProtocol
import BridgeSystem
import BrowserSupport

/// `extension-bridge install`.
enum InstallVerb: Verb {
    static let spec = CommandSpec(
        ["install"], section: "Browsers", abstract: "register the host with browsers",
        discussion: """
            Writes a host manifest for each browser (default: detected, the browsers whose
            executable is installed, whose profile folder exists, or whose Flatpak is
            installed) pointing at the host beside this binary (or --host-path), allowing
            the bundled extension's ids plus --extension-id, and writes the host's
            configuration beside the host (the allowed callers, the group given with --suite,
            the level given with --log-level): the host the browser starts reads it. --user-data-dir DIR writes DIR/NativeMessagingHosts (a custom
            Chromium profile); --system the system folder. A second run changes nothing.
            A receipt records every file for uninstall, as it is written. Exit 66 when no browser
            is found (nothing is written: install a browser, then run `extension-bridge install --crx`,
            which installs the host and the extension); 73 when another program's manifest or a package's file is in the way; 77
            when the host it found (beside this binary, or the project's build) is in a folder
            others can write.
            --config bridge.json installs a bridge made by `new` instead: its host name, ids and
            group; its built host (the project's .build/release or .build/debug, or --host-path)
            is copied to a folder of its own, and it gets a receipt of its own.
            --crx installs the extension too, for this user, in Chromium, Edge, Brave and Vivaldi
            (not Google Chrome, which takes only the Web Store): a CRX signed with this machine's
            key (made the first time, mode 0600, reused so the id never changes; a bridge's own
            keys/ with --config), named in <user data>/External Extensions; the browser installs
            it at its next start, and uninstall removes it; install says so for each browser that gets
            it. Without --crx only the host is registered. Firefox installs only signed add-ons.
            Browsers: chrome chrome-beta chrome-dev chromium edge brave vivaldi firefox librewolf.
            """,
        options: [
            BrowserOptions.browser, BrowserOptions.system, BrowserOptions.userDataDirectory, BrowserOptions.hostName,
            BrowserOptions.extensionID, BrowserOptions.extensionDirectory, BrowserOptions.config,
            InstallVerbOptions.hostPath,
            InstallVerbOptions.destination, InstallVerbOptions.logLevel, InstallVerbOptions.crx, InstallVerbOptions.key,
            InstallVerbOptions.dryRun,
        ])

    static func validate(_ invocation: Invocation) throws(CLIError) {
        // The host would start at its default level and say nothing of the one given.
        if let level = invocation[InstallVerbOptions.logLevel], !HostConfiguration.logLevels.contains(level) {
            throw .usage(
                "--log-level takes \(HostConfiguration.logLevels.joined(separator: ", ")), not "
                    + "'\(HostConfiguration.UnsafeValue.shown(level))'", verb: "install")
        }
    }

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let inputs = BrowserInputs(context: context, args: invocation)
        // --destdir: stage a system install for a package (the package manager, not a receipt, owns the files).
        let destination = invocation[InstallVerbOptions.destination]
        if let destination, !invocation.has(BrowserOptions.system) || !destination.hasPrefix("/") {
            throw .usage("--destdir needs --system and an absolute folder", verb: "install")
        }
        if invocation.has(InstallVerbOptions.crx) && invocation.has(BrowserOptions.system) {
            throw CLIError(.usage, InstallError.packedWithSystem.description)
        }
        var plan = try plan(inputs)
        if invocation.has(InstallVerbOptions.crx) {
            // Everything but the CRX checked first, the files already there too: a refused install makes no key.
            do throws(InstallError) { try plan.check() } catch { throw error.cliError(plan.options) }
            if let packed = try packedExtension(try inputs.bridge(), inputs) { plan.add(packed) }
        }
        let files: [PlannedFile]
        do throws(InstallError) { files = try plan.files() } catch { throw CLIError(.usage, error.description) }
        if invocation.has(InstallVerbOptions.dryRun) {
            try printDryRun(files, invocation, context)
            return 0
        }
        let results: [(PlannedFile, Installer.Outcome)]
        do throws(InstallError) { results = try plan.apply() } catch { throw error.cliError(plan.options) }
        try inputs.printOutcomes(results.map { ($0.0.path, $0.1) })
        if !invocation.json {
            // The program named as doctor's fix lines name it: this one, by its path when not on PATH.
            let tool = Doctor.toolCommand(
                executable: Platform.executablePath(), searchPath: context.environment["PATH"])
            for line in plan.closingLines(results: results, tool: tool) { context.writeErr(line) }
        }
        return 0
    }

    /// The plan from the options: the host (beside this binary, `--host-path`, or a bridge's build
    /// copied to its own folder), the browsers, the ids, group and log level.
    static func plan(_ inputs: BrowserInputs) throws(CLIError) -> InstallPlan {
        let invocation = inputs.args
        var hostPath: String
        var hostBinary: [UInt8]?
        let bridge = try inputs.bridge()
        if let bridge, let configPath = invocation[BrowserOptions.config] {
            let (source, target) = try bridgeHost(bridge, configPath: configPath, inputs)
            do {
                hostBinary = try FileSystem.readFile(source, limit: 256 << 20)
            } catch {
                throw CLIError(.io, "cannot read the host \(source): \(error)")
            }
            hostPath = target
        } else {
            hostPath = try inputs.hostPath()
        }
        var options = InstallOptions(
            browsers: try inputs.browsers(), system: invocation.has(BrowserOptions.system),
            userDataDirectory: inputs.userDataDirectory(),
            hostName: try inputs.hostName(), hostPath: hostPath, identity: try inputs.identity(),
            group: invocation.suiteID ?? bridge?.group, logLevel: invocation[InstallVerbOptions.logLevel])
        options.hostBinary = hostBinary
        return InstallPlan(
            installer: try inputs.installer(), options: options,
            destination: invocation[InstallVerbOptions.destination], configPath: inputs.configPath())
    }

    /// `--dry-run`: text files are shown; a binary (host, CRX) only by size, and a private key never.
    static func printDryRun(_ files: [PlannedFile], _ invocation: Invocation, _ context: CLIContext) throws(CLIError) {
        for file in files {
            let shown = file.kind.isText
            if invocation.json {
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
    }

    /// For `--config`: the built host (`--host-path`, else the newer of the project's release and
    /// debug builds, named on stderr when both exist) and the stable path it is copied to: its own
    /// folder under the user's data folder, or with `--system` `/usr/lib/<host name>/`, never a HOME.
    static func bridgeHost(
        _ bridge: BridgeDescription, configPath: String, _ inputs: BrowserInputs
    ) throws(CLIError) -> (source: String, target: String) {
        let (invocation, context) = (inputs.args, inputs.context)
        let source = try inputs.builtBridgeHost(bridge, configPath: configPath)
        let folder =
            invocation.has(BrowserOptions.system)
            ? Installer.systemHostFolder(hostName: bridge.hostName)
            : Installer.hostFolder(home: try inputs.home, environment: context.environment, hostName: bridge.hostName)
        return (source, folder + "/" + bridge.hostProduct)
    }

    /// `--crx`: the extension packed and signed with the bridge's key (a generated
    /// project's `keys/`, else this machine's key, made the first time), and the
    /// stable path the browsers read it from.
    /// Nil for `--dry-run` before this machine has a key: a dry run makes none.
    static func packedExtension(
        _ bridge: BridgeDescription?, _ inputs: BrowserInputs
    ) throws(CLIError) -> PackedExtension? {
        let (invocation, context) = (inputs.args, inputs.context)
        let folder: String
        if let bridge { folder = bridge.extensionFolder } else { folder = try inputs.extensionFolder() }
        let package = try pack { () throws(PackError) in
            try ExtensionPackage(extensionDirectory: folder, chromiumManifest: bridge?.chromiumManifest)
        }
        let source = try inputs.signingKeySource()
        try pack { () throws(PackError) in try source.check(for: package) }
        if invocation.has(InstallVerbOptions.dryRun), case .machine(let path) = source,
            (try? FileSystem.status(path)) == nil
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
                home: try inputs.home, environment: context.environment, hostName: bridge.hostName)
        } else {
            folderOfCRX = FileSystem.parentPath(try inputs.receiptPath())
        }
        let packed = try pack { () throws(PackError) in
            try PackedExtension.make(
                package, signedBy: source, crxFolder: folderOfCRX, searchPath: context.environment["PATH"])
        }
        if packed.createdKey != nil { inputs.saidMadeKey(source.path, chromiumID: packed.chromiumID, byInstall: true) }
        return packed
    }

}

extension InstallError {
    /// How a refusal of `Installer.apply` (or `check`) exits (`exitKind`), with the hint for system folders.
    fileprivate func cliError(_ options: InstallOptions) -> CLIError {
        let hint = exitKind == .io && options.system ? " (system folders need root: run with sudo)" : ""
        return CLIError(exitKind, description + hint)
    }
}
