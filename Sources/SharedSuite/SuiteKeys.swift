/// The suite keys the extension's settings live under, and the one rule that
/// reads each of them, shared by the host and the CLI.
public enum SuiteKeys {
    /// bool, default false: the extension acts on pages (`isEnabled`).
    public static let enabled = "extensionEnabled"
    /// string, default "auto": the popup's theme.
    public static let theme = "extensionTheme"
    /// The seed's legacy key: read only when `extensionEnabled` is not stored.
    public static let legacyEnabled = "user_defaults_suite_enabled"
    /// dictionary of string → string: the word-replacement vocabulary.
    public static let vocabulary = "vocabulary"

    /// The seed's `saveContent` keys (seed `000`'s handler) and its share
    /// flow's (`SharedDataManager`): kept up to date by `saveContent` only
    /// when they are already stored, so an app written against the seed
    /// opts in by creating them (`extension-bridge write safari_saved_url ""`).
    public static let seedSavedURLKeys = ["safari_saved_url", "lastSharedURL"]
    /// Like `seedSavedURLKeys`, with the saved content (up to
    /// `seedSavedContentMaxBytes`; larger content sets "": it is in the queue).
    public static let seedSavedContentKeys = ["safari_saved_content", "lastSharedText"]
    /// The largest content copied into `seedSavedContentKeys`: every host
    /// reads the suite file on each request, so it stays small.
    public static let seedSavedContentMaxBytes = 64 << 10

    /// Updates the seed's save keys that are stored in `values` after a save
    /// of `url` with `content`. True when any was.
    @discardableResult
    public static func updateSeedSaveKeys(url: String, content: String, in values: inout [String: SuiteValue]) -> Bool {
        var changed = false
        for key in seedSavedURLKeys where values[key] != nil {
            values[key] = .string(url)
            changed = true
        }
        for key in seedSavedContentKeys where values[key] != nil {
            values[key] = .string(content.utf8.count <= seedSavedContentMaxBytes ? content : "")
            changed = true
        }
        return changed
    }

    /// The theme when none is stored.
    public static let defaultTheme = "auto"

    /// Whether the extension acts on pages: the one rule every reply uses
    /// (`getSettings`, `getContent`, `getPageState`, pushes and the seed's
    /// legacy `request:enabled_status`). `extensionEnabled` is the source;
    /// the seed's `user_defaults_suite_enabled` is read only when
    /// `extensionEnabled` is not stored (an app written against the seed that
    /// writes only the legacy key). Both are read as `bool(forKey:)` reads.
    /// Default false.
    public static func isEnabled(_ snapshot: SuiteSnapshot) -> Bool {
        snapshot.bool(enabled) ?? snapshot.bool(legacyEnabled) ?? false
    }

    /// The popup's theme: `extensionTheme` as `string(forKey:)` reads it,
    /// default `auto`.
    public static func theme(_ snapshot: SuiteSnapshot) -> String { snapshot.string(theme) ?? defaultTheme }

    /// Sets the enabled flag, keeping the seed's legacy key in step when present.
    public static func setEnabled(_ on: Bool, in values: inout [String: SuiteValue]) {
        values[enabled] = .bool(on)
        if values[legacyEnabled] != nil { values[legacyEnabled] = .bool(on) }
    }

    /// After a plain write of `key`: when it is one of the two enabled keys
    /// and its new value reads as a Boolean, the other key follows (the
    /// legacy key only when it is stored), so a person writing either one
    /// sees every reply agree.
    public static func keepEnabledInStep(afterWriting key: String, in values: inout [String: SuiteValue]) {
        guard key == enabled || key == legacyEnabled, let on = values[key]?.coercedBool else { return }
        if key == legacyEnabled {
            values[enabled] = .bool(on)
        } else if values[legacyEnabled] != nil {
            values[legacyEnabled] = .bool(on)
        }
    }
}
