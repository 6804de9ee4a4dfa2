import BridgeProtocol

/// The options of `extension-bridge install`, declared once: its spec lists them and its code reads
/// them through these (`invocation[InstallVerbOptions.hostPath]`), never by a string. Their own file,
/// not InstallVerb.swift's: `BrowserInputs` reads --host-path, --destdir and --key for install and
/// `pack --deb` alike, and a file of its own keeps the two files out of a cycle.
enum InstallVerbOptions {
    static let hostPath = OptionSpec(
        "--host-path", value: "PATH", help: "the host the manifests name (default: beside this binary)",
        completion: .file)
    static let destination = OptionSpec(
        "--destdir", value: "DIR", help: "with --system: stage the files under DIR, no receipt (packagers)",
        completion: .directory)
    static let logLevel = OptionSpec(
        "--log-level", value: "LEVEL",
        help: "the host's log level (\(HostConfiguration.logLevels.joined(separator: ", ")))",
        completion: .words(HostConfiguration.logLevels))
    static let crx = OptionSpec(
        "--crx",
        help: "also install the extension itself into Chromium-family browsers: a CRX signed with this "
            + "machine's key (or the bridge's), named in each profile's External Extensions folder")
    static let key = OptionSpec(
        "--key", value: "PEM", help: "with --crx: sign with this private key instead", completion: .file)
    static let dryRun = OptionSpec("--dry-run", help: "print what would be written, write nothing")
}
