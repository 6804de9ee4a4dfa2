/// `extension-bridge install`.
enum InstallVerb: Verb {
    static let spec = CommandSpec(
        ["install"], section: "Browsers", abstract: "register the host with browsers",
        discussion: """
            Writes a host manifest for each browser (default: detected, the browsers whose
            executable is installed, whose profile folder exists, or whose Flatpak is
            installed) pointing at the host beside this binary (or --host-path), allowing
            the bundled extension's ids plus --extension-id, and writes the host's allowlist
            beside the host. --user-data-dir DIR writes DIR/NativeMessagingHosts (a custom
            Chromium profile); --system the system folder. A second run changes nothing.
            A receipt records every file for uninstall. Exit 66 when no browser is found.
            Browsers: chrome chrome-beta chrome-dev chromium edge brave vivaldi firefox librewolf.
            """,
        options: [
            BrowserOptions.browser, BrowserOptions.system, BrowserOptions.userDataDirectory, BrowserOptions.hostName,
            BrowserOptions.extensionID, BrowserOptions.extensionDirectory,
            OptionSpec(
                "--host-path", value: "PATH", help: "the host the manifests name (default: beside this binary)",
                completion: .file),
            OptionSpec(
                "--destdir", value: "DIR", help: "with --system: stage the files under DIR, no receipt (packagers)",
                completion: .directory),
            OptionSpec("--dry-run", help: "print what would be written, write nothing"),
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try BrowserCommands(context: context, args: invocation).install()
        return 0
    }
}
