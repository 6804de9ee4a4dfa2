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
    /// legacy `request:enabled_status`): `extensionEnabled`, read as
    /// `bool(forKey:)` reads it, else the seed's `user_defaults_suite_enabled`
    /// (a suite only an app written against the seed has written), default
    /// false. Every write through ``Suite/update(_:)`` keeps the two keys in
    /// step (``keepEnabledInStep(before:after:)``), so the last write of either wins.
    public static func isEnabled(_ snapshot: SuiteSnapshot) -> Bool {
        snapshot.bool(enabled) ?? snapshot.bool(legacyEnabled) ?? false
    }

    /// The popup's theme: `extensionTheme` as `string(forKey:)` reads it,
    /// default `auto`.
    public static func theme(_ snapshot: SuiteSnapshot) -> String { snapshot.string(theme) ?? defaultTheme }

    /// Sets the enabled flag (``Suite/update(_:)`` brings the legacy key along).
    public static func setEnabled(_ on: Bool, in values: inout [String: SuiteValue]) {
        values[enabled] = .bool(on)
    }

    /// The enabled rule of the writing path, applied by ``Suite/update(_:)`` to every write:
    /// when one of the two enabled keys was written (its value changed) with a value that reads
    /// as a Boolean, the other follows — `extensionEnabled` always, the seed's key only when it
    /// is stored. When a change wrote both, differently, `extensionEnabled` wins. A deleted key
    /// or a value that is not a Boolean leaves the other alone. A store of your own (a test
    /// double) calls it from its `update` as ``Suite`` does.
    public static func keepEnabledInStep(before: [String: SuiteValue], after values: inout [String: SuiteValue]) {
        let wroteEnabled = values[enabled] != before[enabled]
        let wroteLegacy = values[legacyEnabled] != before[legacyEnabled]
        if wroteEnabled, let on = values[enabled]?.coercedBool {
            if values[legacyEnabled] != nil { values[legacyEnabled] = .bool(on) }
        } else if wroteLegacy, !wroteEnabled, let on = values[legacyEnabled]?.coercedBool {
            values[enabled] = .bool(on)
        }
    }
}
