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
            browsers install detects, plus any with a manifest of ours; then reads each
            profile for the extension (a browser never started has no profile yet: a warning
            that says to start it once). With no browser it still checks what it can: a row
            that says so, the host install would register (started if install configured it),
            and secrets. Ends with "Everything checks out." only when no row is a warning or
            an error. Exit 1 when anything is broken (an error row, no browser found); warnings
            alone exit 0.
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
