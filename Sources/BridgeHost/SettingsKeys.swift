import BridgeJSON
import SharedSuite

/// The suite keys the host reads and the public view the extension sees.
public enum SettingsKeys {
    /// bool, default false: the extension acts on pages.
    public static let enabled = "extensionEnabled"
    /// string, default "auto": the popup's theme.
    public static let theme = "extensionTheme"
    /// The seed's legacy key, read first by `request:enabled_status`.
    public static let legacyEnabled = "user_defaults_suite_enabled"
    /// dictionary of string → string: the word-replacement vocabulary.
    public static let vocabulary = "vocabulary"

    /// `settings` as `getSettings` and `settingsChanged` send them.
    public static func publicSettings(_ snapshot: SuiteSnapshot) -> JSONValue {
        .object([
            "enabled": .bool(snapshot.bool(enabled) ?? false),
            "theme": .string(snapshot.string(theme) ?? "auto"),
        ])
    }

    /// `publicSettings`, encoded: written field by field (no dictionary to
    /// build and sort on a one-shot host's path); the same bytes as
    /// `EncodedJSON(publicSettings(snapshot))` (tested).
    public static func encodedSettings(_ snapshot: SuiteSnapshot) -> EncodedJSON {
        var out: [UInt8] = []
        out.reserveCapacity(48)
        out.append(contentsOf: #"{"enabled":"#.utf8)
        out.append(contentsOf: (snapshot.bool(enabled) ?? false ? "true" : "false").utf8)
        out.append(contentsOf: #","theme":"#.utf8)
        JSONWriter.writeString(snapshot.string(theme) ?? "auto", into: &out)
        out.append(UInt8(ascii: "}"))
        return EncodedJSON(writtenAsTheWriterWould: out)
    }

    /// `rules` as `getContent` and `settingsChanged` send them.
    public static func rules(_ snapshot: SuiteSnapshot) -> JSONValue {
        var words: [String: JSONValue] = [:]
        for (word, value) in snapshot.dictionary(vocabulary) ?? [:] {
            if case .string(let replacement) = value, !word.isEmpty { words[word] = .string(replacement) }
        }
        return .object(["vocabulary": .object(words)])
    }

    /// `rules`, encoded. A vocabulary stored plainly in the file (as the CLI
    /// writes it) is copied from the file's bytes; any other is decoded and
    /// written. Both give the same bytes (`StringMapShape`, `EncodedJSON.compact(checked:)`).
    public static func encodedRules(_ snapshot: SuiteSnapshot) -> EncodedJSON {
        if let rules = snapshot.encodedStringDictionary(vocabulary, wrappedAs: "vocabulary") { return rules }
        return EncodedJSON(rules(snapshot))
    }

    /// Sets the enabled flag, keeping the seed's legacy key in step when present.
    public static func setEnabled(_ on: Bool, in values: inout [String: SuiteValue]) {
        values[enabled] = .bool(on)
        if values[legacyEnabled] != nil { values[legacyEnabled] = .bool(on) }
    }
}
