/// `extension-bridge new NAME --host-name ID --group GROUP …`.
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

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try NewCommand(context: context, args: invocation).run(name: invocation.operands[0])
        return 0
    }
}
