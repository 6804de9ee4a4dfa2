/// The options of `extension-bridge upgrade`, declared once: its spec lists them and its code reads
/// them through these (`invocation[UpgradeVerbOptions.directory]`), never by a string.
enum UpgradeVerbOptions {
    static let directory = OptionSpec(
        "--dir", value: "PATH", help: "the project (default: the current folder)", completion: .directory)
    static let packagePath = OptionSpec(
        "--package-path", value: "PATH", help: "the ExtensionBridge source to move to", completion: .directory)
    static let packageURL = OptionSpec(
        "--package-url", value: "URL", help: "depend on a published ExtensionBridge instead")
    static let from = OptionSpec("--from", value: "VERSION", help: "with --package-url: the exact version")
    static let force = OptionSpec("--force", help: "write over edited core files, keeping each as FILE.orig")
    static let dryRun = OptionSpec("--dry-run", help: "print what would change, write nothing")
}
