/// The options of `extension-bridge new`, declared once: its spec lists them and NewCommand reads
/// them through these (`invocation[NewVerbOptions.hostName]`), never by a string.
enum NewVerbOptions {
    static let hostName = OptionSpec(
        "--host-name", value: "ID", help: "the native-messaging host name (com.example.readlater)")
    static let group = OptionSpec("--group", value: "GROUP", help: "the App Group whose suite the host serves")
    static let features = OptionSpec(
        "--features", value: "LIST", repeats: true,
        help: "what the extension does, comma-separated: vocabulary, saving, transform, secrets (default all)")
    static let fromSafari = OptionSpec(
        "--from-safari", value: "DIR",
        help: "import a Safari Web Extension's resources folder as the extension (not with --features)",
        completion: .directory)
    static let directory = OptionSpec(
        "--dir", value: "PATH", help: "where to write the project (default ./NAME)", completion: .directory)
    static let packagePath = OptionSpec(
        "--package-path", value: "PATH", help: "the ExtensionBridge checkout to depend on", completion: .directory)
    static let packageURL = OptionSpec(
        "--package-url", value: "URL", help: "depend on a published ExtensionBridge instead")
    static let from = OptionSpec("--from", value: "VERSION", help: "with --package-url: the exact version (pinned)")
    static let force = OptionSpec("--force", help: "replace an existing folder (it is kept beside, renamed)")
    static let dryRun = OptionSpec("--dry-run", help: "list the files, write nothing")
}
