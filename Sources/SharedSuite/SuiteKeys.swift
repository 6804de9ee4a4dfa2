/// The suite keys the extension's settings live under, and the one rule that
/// reads each of them, shared by the host and the CLI.
public enum SuiteKeys {
    /// bool, default false: the extension acts on pages.
    public static let enabled = "extensionEnabled"
    /// string, default "auto": the popup's theme.
    public static let theme = "extensionTheme"
    /// The seed's legacy key, read first by `request:enabled_status`.
    public static let legacyEnabled = "user_defaults_suite_enabled"
    /// dictionary of string → string: the word-replacement vocabulary.
    public static let vocabulary = "vocabulary"

    /// The theme when none is stored.
    public static let defaultTheme = "auto"

    /// Whether the extension acts on pages: `extensionEnabled`, default false.
    public static func isEnabled(_ snapshot: SuiteSnapshot) -> Bool { snapshot.bool(enabled) ?? false }

    /// What the seed's legacy message answers: `user_defaults_suite_enabled`
    /// when stored, else `isEnabled`.
    public static func legacyIsEnabled(_ snapshot: SuiteSnapshot) -> Bool {
        snapshot.bool(legacyEnabled) ?? isEnabled(snapshot)
    }

    /// The popup's theme: `extensionTheme`, default `auto`.
    public static func theme(_ snapshot: SuiteSnapshot) -> String { snapshot.string(theme) ?? defaultTheme }

    /// Sets the enabled flag, keeping the seed's legacy key in step when present.
    public static func setEnabled(_ on: Bool, in values: inout [String: SuiteValue]) {
        values[enabled] = .bool(on)
        if values[legacyEnabled] != nil { values[legacyEnabled] = .bool(on) }
    }
}
