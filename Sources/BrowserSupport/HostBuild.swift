/// How a bridge's host is built to be used: the one build its own scripts run (a generated
/// project's `scripts/build.sh`, which its install.sh and package-deb.sh build through;
/// ExtensionBridge's `scripts/install.sh`) and `extension-bridge run` runs when the host is
/// missing or older than its sources. Declared once, so the script a project ships and `run`
/// cannot build different hosts.
public enum HostBuild {
    /// A generated project's host: `swift build` with these arguments in the project folder
    /// (release, a static executable: no Swift runtime needed where it runs).
    public static func projectArguments(product: String) -> [String] {
        ["build", "-c", "release", "-Xswiftc", "-static-executable", "--product", product]
    }

    /// The same, as a line of shell: the project's one build line, in its `scripts/build.sh`.
    public static func projectCommand(product: String) -> String {
        (["swift"] + projectArguments(product: product)).joined(separator: " ")
    }

    /// ExtensionBridge's own host: this script of the checkout, with the product as its argument
    /// (release, static, the host's functions laid out in the order a request runs them).
    public static let builtInScript = "scripts/release-build.sh"

    /// `swift build` arguments that print the folder a release build puts its products in.
    public static let binPathArguments = ["build", "-c", "release", "--show-bin-path"]
}
