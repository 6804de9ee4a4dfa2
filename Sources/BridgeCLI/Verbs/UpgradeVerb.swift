/// `extension-bridge upgrade [--dir PROJECT] [--force] [--dry-run] …`.
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

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try UpgradeCommand(context: context, args: invocation).run()
        return 0
    }
}
