import BridgeGenerator
import BridgeJSON
import BridgeSystem
import BrowserSupport

/// `extension-bridge new NAME --host-name ID --group GROUP [--features LIST | --from-safari DIR] [--dir PATH]
/// [--package-path PATH | --package-url URL --from VERSION] [--force] [--dry-run]`: writes a bridge project
/// for the app NAME (`ProjectTemplate`, `ProjectWriter`).
enum NewVerb: Verb {
    static let spec = CommandSpec(
        ["new"], section: "Your own bridge", abstract: "write a bridge project for your app",
        discussion: """
            Writes a bridge project for the app NAME (a Swift identifier) into ./NAME or --dir:
            a Swift package whose host runs the built-in actions plus the app's own (appInfo),
            with a test over real pipes; the app's side (a library and NAME-app: turn the
            extension on, write its settings, import what it saved) with its tests; the bundled
            extension made the app's own (a fresh key and Chromium id, a Firefox id from the host
            name, the host name in its code, the app's name, and only the menus, shortcut,
            content scripts and permissions of its --features: vocabulary, saving, transform,
            secrets, default all); bridge.json for install/uninstall/doctor/pack --config;
            README, scripts, and a Safari handler library (docs/GENERATOR.md). The project
            carries ExtensionBridge's libraries (ExtensionBridge/), copied from --package-path
            (default: the installed copy, or the checkout this tool was built in), so a clone
            builds offline anywhere; or it depends on --package-url with --from. Host names: lowercase letters, digits, '_' and
            dots between them. An existing folder is refused unless --force, which keeps it as
            FOLDER.old-TIME. --from-safari DIR imports a Safari Web Extension's resources folder
            (manifest.json, scripts, pages, _locales, images) as the extension instead: its files
            byte for byte, the manifest adapted, a shim for Safari's sendNativeMessage forms; it
            prints what it changed and the Safari-only APIs it found. Nothing is half-written: the project appears in one rename. Needs
            openssl for the key pair. Exit 64 usage, 65 a value breaks a rule, 66 no
            ExtensionBridge source, 69 no openssl, 74 I/O.
            """,
        options: [
            NewVerbOptions.hostName, NewVerbOptions.group, NewVerbOptions.features, NewVerbOptions.fromSafari,
            NewVerbOptions.directory, NewVerbOptions.packagePath, NewVerbOptions.packageURL, NewVerbOptions.from,
            NewVerbOptions.force, NewVerbOptions.dryRun,
        ],
        operands: [OperandSpec("NAME")])

    static func validate(_ args: Invocation) throws(CLIError) {
        _ = try identity(args)
        if args[NewVerbOptions.packagePath] != nil && args[NewVerbOptions.packageURL] != nil {
            throw .usage("--package-path and --package-url exclude each other", verb: "new")
        }
        if (args[NewVerbOptions.from] != nil) != (args[NewVerbOptions.packageURL] != nil) {
            throw .usage("--package-url and --from go together", verb: "new")
        }
        if args[NewVerbOptions.fromSafari] != nil && args[NewVerbOptions.features] != nil {
            throw .usage(
                "--from-safari and --features exclude each other: an imported extension does what its own code does",
                verb: "new")
        }
    }

    /// `--host-name` and `--group` (or `--suite`), which every project needs.
    static func identity(_ args: Invocation) throws(CLIError) -> (hostName: String, group: String) {
        guard let hostName = args[NewVerbOptions.hostName] else {
            throw .usage("new needs --host-name ID (for example com.example.readlater)", verb: "new")
        }
        guard let group = args[NewVerbOptions.group] ?? args.suiteID else {
            throw .usage("new needs --group GROUP (for example group.com.example.readlater)", verb: "new")
        }
        return (hostName, group)
    }

    static func run(_ args: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let name = args.operands[0]
        let (hostName, group) = try identity(args)
        let cwd = FileSystem.currentDirectory() ?? "."
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : cwd + "/" + path }
        // The ExtensionBridge source: where the bundled extension and the libraries the project
        // carries (by default) are copied from. No path of it is written into the project.
        let source = try SourceLocation.locate(
            given: args[NewVerbOptions.packagePath], context: context, absolute: absolute)
        let dependency: ProjectSpec.Dependency
        if let url = args[NewVerbOptions.packageURL], let from = args[NewVerbOptions.from] {
            dependency = .url(url, exact: from)
        } else {
            dependency = .carried
        }
        var spec = ProjectSpec(name: name, hostName: hostName, group: group, dependency: dependency)
        let target = absolute(args[NewVerbOptions.directory] ?? name)
        try generating { () throws in
            if let list = args[NewVerbOptions.features] { spec.features = try ProjectSpec.features(list) }
            try spec.validate()
            try spec.checkPin(templates: SourceLocation.version(of: source))
            if !args.has(NewVerbOptions.force) && (try? FileSystem.status(target)) != nil {
                throw GeneratorError.folderExists(target)
            }
            let safari = try args[NewVerbOptions.fromSafari].map { (dir) throws(GeneratorError) in
                try SafariImport.read(absolute(dir))
            }
            let template = try ProjectWriter.readTree(source + "/extension")
            let carried = try CarriedSource.read(source, version: SourceLocation.version(of: source))
            let key = try ExtensionKey.generate(searchPath: context.environment["PATH"])
            let files: [GeneratedFile]
            var report: SafariImport.Report?
            if let safari {
                (files, report) = try ProjectTemplate.files(
                    spec: spec, key: key, extensionFiles: template, carried: carried, safari: safari)
            } else {
                files = try ProjectTemplate.files(spec: spec, key: key, extensionFiles: template, carried: carried)
            }
            if let report, !args.json {
                for line in report.lines { try context.print(line) }
            }
            if args.has(NewVerbOptions.dryRun) { return try printDryRun(files, target: target, args, context) }
            let aside = try ProjectWriter.write(files, to: target, force: args.has(NewVerbOptions.force))
            guard args.json else {
                if let aside { context.writeErr("the folder that was there is kept as \(aside)") }
                return try printWritten(files, target: target, spec: spec, key: key, imported: report != nil, context)
            }
            try context.print(
                JSONWriter.string([
                    "folder": .string(target), "files": .int(files.count), "chromiumID": .string(key.chromiumID),
                    "firefoxID": .string(spec.firefoxID), "movedAside": aside.map(JSONValue.string) ?? .null,
                    // An import's features are its own code's, none of the bundled extension's (as bridge.json says).
                    "features": .array(report == nil ? spec.features.map { .string($0.rawValue) } : []),
                    "safariImport": report?.json ?? .null,
                ]))
        }
        return 0
    }

    /// `--dry-run`: each file (or link) that would be written.
    static func printDryRun(_ files: [GeneratedFile], target: String, _ args: Invocation, _ context: CLIContext)
        throws(CLIError)
    {
        for file in files {
            if args.json {
                try context.print(
                    JSONWriter.string(
                        file.linkTarget.map { ["path": .string(file.path), "link": .string($0)] }
                            ?? ["path": .string(file.path), "bytes": .int(file.bytes.count)]))
            } else if let link = file.linkTarget {
                try context.print("would link \(target)/\(file.path) to \(link)")
            } else {
                try context.print("would write \(target)/\(file.path) (\(file.bytes.count) bytes)")
            }
        }
    }

    /// What was written, its ids, and the next steps.
    static func printWritten(
        _ files: [GeneratedFile], target: String, spec: ProjectSpec, key: ExtensionKey, imported: Bool,
        _ context: CLIContext
    ) throws(CLIError) {
        try context.print("wrote \(target) (\(files.count) files)")
        try context.print("  Chromium extension id \(key.chromiumID), Firefox add-on id \(spec.firefoxID)")
        if !imported {
            try context.print("  features: \(spec.features.map(\.rawValue).joined(separator: ", "))")
        }
        try context.print("next:")
        try context.print("  cd \(target.shellQuoted)")
        try context.print("  scripts/test.sh          # build it and run its tests (no ExtensionBridge needed)")
        try context.print("  scripts/install.sh       # build the host and register it: install --config bridge.json")
        try context.print("  then the extension: scripts/package-deb.sh, or scripts/install.sh --crx (README.md)")
        if files.contains(where: { $0.path.hasPrefix(SafariImport.chromiumFolder + "/") }) {
            try context.print(
                "  in Chromium, \(SafariImport.chromiumFolder)/: its Manifest V3 manifest (yours is Manifest V2)")
        }
        if imported {
            try context.print("  install the host before the extension: your code's sendNativeMessage needs it")
        }
    }
}

/// The options of `extension-bridge new`, declared once: its spec lists them and its run reads
/// them through these (`invocation[NewVerbOptions.hostName]`), never by a string.
enum NewVerbOptions {
    static let hostName = OptionSpec(
        "--host-name", value: "ID", help: "the native-messaging host name (com.example.readlater)")
    static let group = OptionSpec("--group", value: "GROUP", help: "the App Group whose suite the host serves")
    static let features = OptionSpec(
        "--features", value: "LIST", repeats: true,
        help: "what the extension does, comma-separated: vocabulary, saving, transform, secrets (default all)")
    static let fromSafari = OptionSpec(
        "--from-safari", value: "DIR",
        help: "import a Safari Web Extension's resources folder as the extension (not with --features)",
        completion: .directory)
    static let directory = OptionSpec(
        "--dir", value: "PATH", help: "where to write the project (default ./NAME)", completion: .directory)
    static let packagePath = OptionSpec(
        "--package-path", value: "PATH", help: "the ExtensionBridge checkout to depend on", completion: .directory)
    static let packageURL = OptionSpec(
        "--package-url", value: "URL", help: "depend on a published ExtensionBridge instead")
    static let from = OptionSpec("--from", value: "VERSION", help: "with --package-url: the exact version (pinned)")
    static let force = OptionSpec("--force", help: "replace an existing folder (it is kept beside, renamed)")
    static let dryRun = OptionSpec("--dry-run", help: "list the files, write nothing")
}
