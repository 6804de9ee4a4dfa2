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

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try BrowserCommands(context: context, args: invocation).install()
        return 0
    }
}
