/// `extension-bridge doctor`.
enum DoctorVerb: Verb {
    static let spec = CommandSpec(
        ["doctor"], section: "Browsers", abstract: "check every location and talk to the host",
        discussion: """
            Checks every folder each browser reads: the manifest exists, is valid JSON, its
            name matches the file, its path is absolute and executable, it allows our
            extension, nothing shadows it; then launches the host as the browser would and
            does a hello round trip; a host, manifest or project build that another user could
            have put there (the file or a folder on its path writable by others) is not run,
            and the table says why. Prints a table, the manifest each browser uses (user
            before system), and the command that fixes each problem. Looks at the same
            browsers install detects, plus any with a manifest of ours. Exit 1 when
            anything is broken.
            """,
        options: [
            BrowserOptions.browser, BrowserOptions.userDataDirectory, BrowserOptions.system,
            DoctorVerbOptions.all, BrowserOptions.hostName,
            BrowserOptions.extensionID, BrowserOptions.extensionDirectory, BrowserOptions.config,
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        try BrowserCommands(context: context, args: invocation).doctor()
    }
}
