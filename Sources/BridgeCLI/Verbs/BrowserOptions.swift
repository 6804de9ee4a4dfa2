import BrowserSupport

/// Options `install`, `uninstall` and `doctor` share, declared once.
enum BrowserOptions {
    static let browser = OptionSpec(
        "--browser", value: "NAME", repeats: true,
        help: "a browser (repeat or comma-separate), all, or detected (the default)",
        completion: .words(BrowserCatalog.all.map(\.id) + ["all", "detected"]))
    static let userDataDirectory = OptionSpec(
        "--user-data-dir", value: "DIR",
        help: "a Chromium profile started with --user-data-dir: DIR/NativeMessagingHosts",
        completion: .directory)
    static let hostName = OptionSpec(
        "--host-name", value: "NAME", help: "the host's name (default org.extensionbridge.host)")
    static let extensionID = OptionSpec(
        "--extension-id", value: "ID", repeats: true, help: "allow another extension id too")
    static let extensionDirectory = OptionSpec(
        "--extension-dir", value: "DIR",
        help: "the extension folder (default ../share/extension-bridge/extension, else ./extension)",
        completion: .directory)
    static let system = OptionSpec("--system", help: "the system folders (/etc/…, /usr/lib/mozilla/…)")
    static let config = OptionSpec(
        "--config", value: "FILE",
        help: "a bridge made by `new`: its bridge.json (host name, ids, group, host) instead of the built-in bridge",
        completion: .file)
}
