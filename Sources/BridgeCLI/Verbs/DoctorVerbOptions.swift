/// The options of `extension-bridge doctor`, declared once: its spec lists them and its code reads
/// them through these (`invocation[DoctorVerbOptions.all]`), never by a string.
enum DoctorVerbOptions {
    static let all = OptionSpec("--all", help: "also list folders without a manifest")
}
