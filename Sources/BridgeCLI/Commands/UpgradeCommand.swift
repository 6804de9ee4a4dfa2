import BridgeGenerator
import BridgeJSON
import BridgeSystem

/// `upgrade [--dir PROJECT] [--package-path PATH | --package-url URL --from VERSION] [--force]
/// [--dry-run]`: moves a generated project to this ExtensionBridge (`ProjectUpgrader`).
struct UpgradeCommand {
    let context: CLIContext
    let args: Invocation

    func run() throws(CLIError) {
        if args[UpgradeVerbOptions.packagePath] != nil && args[UpgradeVerbOptions.packageURL] != nil {
            throw .usage("--package-path and --package-url exclude each other", verb: "upgrade")
        }
        if (args[UpgradeVerbOptions.from] != nil) != (args[UpgradeVerbOptions.packageURL] != nil) {
            throw .usage("--package-url and --from go together", verb: "upgrade")
        }
        let cwd = FileSystem.currentDirectory() ?? "."
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : cwd + "/" + path }
        let project = args[UpgradeVerbOptions.directory].map(absolute) ?? cwd
        let source = try SourceLocation.locate(
            given: args[UpgradeVerbOptions.packagePath], context: context, absolute: absolute)
        let version = SourceLocation.version(of: source)
        do {
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
            } else {
                for line in plan.summary(project: project, dryRun: dryRun) { try context.print(line) }
                if !dryRun && (plan.changesFiles || plan.from != plan.to) {
                    try context.print("next: scripts/test.sh, then commit (with .extension-bridge/core.json)")
                }
            }
        } catch let error as GeneratorError {
            throw CLIError(CLIError.Kind(rawValue: error.exitStatus) ?? .software, error.description)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(.software, "\(error)")
        }
    }
}
