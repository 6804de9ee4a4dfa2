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

    /// The static link's one warning, glibc's, for any static executable that calls dlopen (the Swift
    /// runtime's `LibPrespecialized.cpp`, only when `SWIFT_DEBUG_LIB_PRESPECIALIZED_PATH` is set).
    public static let dlopenWarning = "warning: Using 'dlopen' in statically linked applications"

    /// The line a project's `scripts/build.sh`, and `run`, print in its place.
    public static let dlopenNote =
        "note: the static link's dlopen warning is the Swift runtime's: it calls dlopen only when the debugging "
        + "variable SWIFT_DEBUG_LIB_PRESPECIALIZED_PATH is set; the host opens no shared library"

    /// A line of a build's output as it is shown: the dlopen warning as `dlopenNote`, any other as it is.
    public static func shown(_ line: String) -> String {
        line.contains(dlopenWarning) ? dlopenNote : line
    }

    /// `swift build` arguments that print the folder a release build puts its products in.
    public static let binPathArguments = ["build", "-c", "release", "--show-bin-path"]
}
