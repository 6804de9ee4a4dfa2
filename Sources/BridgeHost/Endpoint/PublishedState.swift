import BridgeJSON
import BridgeSystem
import SharedSuite

/// The settings and rules as the extension sees them (`getSettings`,
/// `getContent`, `settingsChanged`), encoded once per suite version: while
/// the suite's change token stays the same, a port asking again copies bytes.
/// Each part is encoded when first asked for, so `getSettings` never pays
/// for a large vocabulary. Storage hands out values; the shapes the
/// extension sees are decided here.
public final class PublishedState {
    private var version: ChangeToken?
    private var settings: EncodedJSON?
    private var rules: EncodedJSON?

    public init() {}

    /// `{"enabled":…,"theme":…}` of `snapshot`.
    public func settings(of snapshot: SuiteSnapshot) -> EncodedJSON {
        forget(unlessSameVersionAs: snapshot)
        return PublishedState.cached(&settings, of: snapshot, PublishedState.encodedSettings)
    }

    /// `{"vocabulary":{…}}` of `snapshot`.
    public func rules(of snapshot: SuiteSnapshot) -> EncodedJSON {
        forget(unlessSameVersionAs: snapshot)
        return PublishedState.cached(&rules, of: snapshot, PublishedState.encodedRules)
    }

    /// Settings and rules together, for comparing versions (`settingsChanged`).
    public func both(of snapshot: SuiteSnapshot) -> [EncodedJSON] { [settings(of: snapshot), rules(of: snapshot)] }

    /// `slot`, or `encode(snapshot)` kept there when the snapshot has a
    /// version. (An `inout` slot, not a key path: key paths instantiate
    /// metadata on a one-shot host's start-up.)
    private static func cached(
        _ slot: inout EncodedJSON?, of snapshot: SuiteSnapshot, _ encode: (SuiteSnapshot) -> EncodedJSON
    ) -> EncodedJSON {
        if let slot { return slot }
        let encoded = encode(snapshot)
        if snapshot.version != nil { slot = encoded }
        return encoded
    }

    private func forget(unlessSameVersionAs snapshot: SuiteSnapshot) {
        guard snapshot.version == nil || snapshot.version != version else { return }
        version = snapshot.version
        settings = nil
        rules = nil
    }

    // MARK: The shapes

    /// `settings` as `getSettings` and `settingsChanged` send them.
    public static func settingsValue(_ snapshot: SuiteSnapshot) -> JSONValue {
        .object(["enabled": .bool(SuiteKeys.isEnabled(snapshot)), "theme": .string(SuiteKeys.theme(snapshot))])
    }

    /// `settingsValue`, encoded: written field by field (no dictionary to
    /// build and sort on a one-shot host's path); the same bytes as
    /// `EncodedJSON(settingsValue(snapshot))` (tested).
    public static func encodedSettings(_ snapshot: SuiteSnapshot) -> EncodedJSON {
        var out: [UInt8] = []
        out.reserveCapacity(48)
        out.append(contentsOf: #"{"enabled":"#.utf8)
        out.append(contentsOf: (SuiteKeys.isEnabled(snapshot) ? "true" : "false").utf8)
        out.append(contentsOf: #","theme":"#.utf8)
        JSONWriter.writeString(SuiteKeys.theme(snapshot), into: &out)
        out.append(UInt8(ascii: "}"))
        return EncodedJSON(writtenAsTheWriterWould: out)
    }

    /// `rules` as `getContent` and `settingsChanged` send them: the string
    /// entries of the suite's `vocabulary`, empty words left out.
    public static func rulesValue(_ snapshot: SuiteSnapshot) -> JSONValue {
        var words: [String: JSONValue] = [:]
        for (word, value) in snapshot.dictionary(SuiteKeys.vocabulary) ?? [:] {
            if case .string(let replacement) = value, !word.isEmpty { words[word] = .string(replacement) }
        }
        return .object(["vocabulary": .object(words)])
    }

    /// `rulesValue`, encoded. A vocabulary stored plainly in the file (as the
    /// CLI writes it) is copied from the file's bytes into the wrapper; any
    /// other is decoded and written. Both give the same bytes
    /// (`StringMapShape`, `EncodedJSON.compact(checked:)`).
    public static func encodedRules(_ snapshot: SuiteSnapshot) -> EncodedJSON {
        if let rules = snapshot.encodedStringDictionary(SuiteKeys.vocabulary, nestedUnder: "vocabulary") {
            return rules
        }
        return EncodedJSON(rulesValue(snapshot))
    }
}
