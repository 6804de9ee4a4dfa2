import BridgeGenerator
import BridgeJSON
import BridgeSystem
import BrowserSupport

/// `new NAME --host-name ID --group GROUP [--features LIST | --from-safari DIR] [--dir PATH] [--package-path PATH |
/// --package-url URL --from VERSION] [--force] [--dry-run]`: writes a bridge
/// project for the app NAME, as the seeds' generator does.
struct NewCommand {
    let context: CLIContext
    let args: Invocation

    /// Writes the project for the app `name` (the one operand `NewVerb.spec` lets through).
    func run(name: String) throws(CLIError) {
        guard let hostName = args[NewVerbOptions.hostName] else {
            throw .usage("new needs --host-name ID (for example com.example.readlater)", verb: "new")
        }
        guard let group = args[NewVerbOptions.group] ?? args.suiteID else {
            throw .usage("new needs --group GROUP (for example group.com.example.readlater)", verb: "new")
        }
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
        do {
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
            if args.has(NewVerbOptions.dryRun) { return try printDryRun(files, target: target) }
            let aside = try ProjectWriter.write(files, to: target, force: args.has(NewVerbOptions.force))
            if args.json {
                try context.print(
                    JSONWriter.string([
                        "folder": .string(target), "files": .int(files.count), "chromiumID": .string(key.chromiumID),
                        "firefoxID": .string(spec.firefoxID), "movedAside": aside.map(JSONValue.string) ?? .null,
                        "features": .array(spec.features.map { .string($0.rawValue) }),
                        "safariImport": report?.json ?? .null,
                    ]))
            } else {
                if let aside { context.writeErr("the folder that was there is kept as \(aside)") }
                try printWritten(files, target: target, spec: spec, key: key, imported: report != nil)
            }
        } catch let error as GeneratorError {
            throw CLIError(CLIError.Kind(rawValue: error.exitStatus) ?? .software, error.description)
        } catch let error as PackError {
            // The key pair (ExtensionKey lives in BrowserSupport, beside the packing that uses it).
            throw CLIError(CLIError.Kind(rawValue: error.exitStatus) ?? .software, error.description)
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError(.software, "\(error)")
        }
    }

    /// `--dry-run`: each file (or link) that would be written.
    private func printDryRun(_ files: [GeneratedFile], target: String) throws(CLIError) {
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
    private func printWritten(
        _ files: [GeneratedFile], target: String, spec: ProjectSpec, key: ExtensionKey, imported: Bool
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
