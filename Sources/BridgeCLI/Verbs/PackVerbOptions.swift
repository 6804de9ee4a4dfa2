/// The options of `extension-bridge pack`, declared once: its spec lists them and its code reads
/// them through these (`invocation[PackVerbOptions.out]`), never by a string.
enum PackVerbOptions {
    static let out = OptionSpec(
        "--out", value: "DIR", help: "where the packages go (default ./dist)", completion: .directory)
    static let updateURL = OptionSpec(
        "--update-url", value: "BASE",
        help: "the https folder the packages are served from: writes the update manifests")
    static let key = OptionSpec(
        "--key", value: "PEM", help: "the RSA private key that signs the CRX", completion: .file)
    static let deb = OptionSpec("--deb", help: "write the Debian package (host, manifests, extension) instead")
    static let changelog = OptionSpec(
        "--changelog", value: "FILE",
        help: "with --deb: a Keep a Changelog file whose section for the version becomes the package's changelog",
        completion: .file)
    static let hostPath = OptionSpec(
        "--host-path", value: "PATH", help: "with --deb: the static host to package", completion: .file)
}
