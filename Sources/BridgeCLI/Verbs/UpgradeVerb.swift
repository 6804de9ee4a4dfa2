import BridgeGenerator
import BridgeJSON
import BridgeSystem

/// `extension-bridge upgrade [--dir PROJECT] [--package-path PATH | --package-url URL --from VERSION] [--force]
/// [--dry-run]`: moves a generated project to this ExtensionBridge (`ProjectUpgrader`).
enum UpgradeVerb: Verb {
    static let spec = CommandSpec(
        ["upgrade"], section: "Your own bridge", abstract: "move a generated project to this ExtensionBridge",
        discussion: """
            Moves the project `new` wrote (--dir, default the current folder) to this
            ExtensionBridge: the files ExtensionBridge owns (its extension outside extension/app/,
            the carried libraries in ExtensionBridge/, Package.swift, scripts/, Safari/README.md)
            regenerated with the app's name, host name, version, ids and the key already in its
            manifest, and the libraries this version's (or --package-url URL --from VERSION,
            exact). A target the new Package.swift declares whose folder is missing gets its
            template files. Says so when the project is current.
            bridge.json, keys/, extension/app/, the app's Swift and every file it added are never
            touched; no key is made or read. .extension-bridge/core.json records the version
            and each core file's SHA-256. Prints each file added, replaced, removed and kept.
            Refuses (65), naming them, while core files were edited; --force keeps each as
            FILE.orig and writes the new one. Refuses a project from a newer ExtensionBridge (65):
            it never downgrades. Nothing is half-done: new files are staged, then each change
            is one rename, undone if a later one fails. Exit 64 usage, 65 refused, 66 not a
            project (or no core.json without --force), 74 I/O, 77 an untrusted source.
            """,
        options: [
            UpgradeVerbOptions.directory, UpgradeVerbOptions.packagePath, UpgradeVerbOptions.packageURL,
            UpgradeVerbOptions.from, UpgradeVerbOptions.force, UpgradeVerbOptions.dryRun,
        ],
        operands: [])

    static func validate(_ args: Invocation) throws(CLIError) {
        if args[UpgradeVerbOptions.packagePath] != nil && args[UpgradeVerbOptions.packageURL] != nil {
            throw .usage("--package-path and --package-url exclude each other", verb: "upgrade")
        }
        if (args[UpgradeVerbOptions.from] != nil) != (args[UpgradeVerbOptions.packageURL] != nil) {
            throw .usage("--package-url and --from go together", verb: "upgrade")
        }
    }

    static func run(_ args: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let cwd = FileSystem.currentDirectory() ?? "."
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : cwd + "/" + path }
        let project = args[UpgradeVerbOptions.directory].map(absolute) ?? cwd
        let source = try SourceLocation.locate(
            given: args[UpgradeVerbOptions.packagePath], context: context, absolute: absolute)
        let version = SourceLocation.version(of: source)
        try generating { () throws in
            if let url = args[UpgradeVerbOptions.packageURL], let from = args[UpgradeVerbOptions.from] {
                // The same checks `new` makes (a plain URL, a semantic version).
                var check = ProjectSpec(
                    name: "Check", hostName: "com.example.check", group: "group.com.example.check",
                    dependency: .url(url, exact: from))
                check.version = "1.0.0"
                try check.validate()
            }
            let recorded = try ProjectUpgrader.record(in: project)
            let packageVersion = args[UpgradeVerbOptions.from] ?? version
            let dependency = ProjectUpgrader.dependency(
                recorded: recorded, packageURL: args[UpgradeVerbOptions.packageURL], version: packageVersion)
            let upgrader = ProjectUpgrader(
                project: project, extensionFiles: try ProjectWriter.readTree(source + "/extension"),
                carried: try CarriedSource.read(source, version: version), dependency: dependency,
                force: args.has(UpgradeVerbOptions.force))
            let plan = try upgrader.plan()
            let dryRun = args.has(UpgradeVerbOptions.dryRun)
            if !dryRun { try upgrader.apply(plan) }
            if args.json {
                try context.print(JSONWriter.string(plan.summaryJSON(project: project, dryRun: dryRun)))
                return
            }
            for line in plan.summary(project: project, dryRun: dryRun) { try context.print(line) }
            if !dryRun && (plan.changesFiles || plan.from != plan.to) {
                try context.print("next: scripts/test.sh, then commit (with .extension-bridge/core.json)")
            }
        }
        return 0
    }
}

/// The options of `extension-bridge upgrade`, declared once: its spec lists them and its code reads
/// them through these (`invocation[UpgradeVerbOptions.directory]`), never by a string.
enum UpgradeVerbOptions {
    static let directory = OptionSpec(
        "--dir", value: "PATH", help: "the project (default: the current folder)", completion: .directory)
    static let packagePath = OptionSpec(
        "--package-path", value: "PATH", help: "the ExtensionBridge source to move to", completion: .directory)
    static let packageURL = OptionSpec(
        "--package-url", value: "URL", help: "depend on a published ExtensionBridge instead")
    static let from = OptionSpec("--from", value: "VERSION", help: "with --package-url: the exact version")
    static let force = OptionSpec("--force", help: "write over edited core files, keeping each as FILE.orig")
    static let dryRun = OptionSpec("--dry-run", help: "print what would change, write nothing")
}
