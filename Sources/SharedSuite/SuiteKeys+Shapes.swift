/// What the host reads at each of its keys, declared once: the CLI warns with it where a key is
/// written (`write`, `import`) and `doctor` checks the stored suite with it. The suite itself
/// stores any type anywhere; these are only the shapes the host makes sense of.
public enum SuiteKeyShape: Sendable, Equatable {
    /// Read as `bool(forKey:)` reads it (`SuiteValue.coercedBool`).
    case bool
    /// Read as `string(forKey:)` reads it (`SuiteValue.coercedString`).
    case string
    /// A dictionary whose string values with a non-empty word count (`PageState.entries`).
    case stringDictionary

    /// The `write` operands that store a value of this shape, as an example for a fix line.
    public var example: String {
        switch self {
        case .bool: return "-bool true"
        case .string: return "-string dark"
        case .stringDictionary: return "-dict blue blauw red rood"
        }
    }
}

/// A known key stored with a value the host will not read as the user meant.
public struct SuiteKeyMismatch: Equatable, Sendable {
    /// The key.
    public var key: String
    /// What was found, in the CLI's type words (`array`, or `dict with 2 entries that are not strings`).
    public var found: String
    /// What the host does with it, as a sentence part ("answers an empty vocabulary").
    public var effect: String
    /// The `write` arguments that store it right (`vocabulary -dict blue blauw red rood`).
    public var fixArguments: String

    /// One sentence: the key, what was found and what the host does.
    public var description: String { "\(key) is \(found): the host \(effect)" }
}

extension SuiteKeys {
    /// The keys the host reads and their shapes (docs/SUITE.md, "Keys the host reads").
    public static let shapes: [String: SuiteKeyShape] = [
        enabled: .bool, legacyEnabled: .bool, theme: .string, vocabulary: .stringDictionary,
    ]

    /// The keys whose value the page sees (the content script's rules): written while the
    /// extension is off, nothing on a page changes until it is turned on.
    public static let pageKeys: Set<String> = [vocabulary]

    /// The words `-bool` takes: a string among them reads as the Boolean the person meant.
    static let booleanWords: Set<String> = ["true", "false", "yes", "no", "1", "0"]

    /// How the host reads `value` at `key`, when that is not what a value of the key's shape
    /// gives: nil for keys the host does not read and for values it reads as meant.
    public static func mismatch(key: String, value: SuiteValue) -> SuiteKeyMismatch? {
        guard let shape = shapes[key] else { return nil }
        let fix = key + " " + shape.example
        switch shape {
        case .bool:
            guard let reading = value.coercedBool else {
                return SuiteKeyMismatch(
                    key: key, found: "a value of type \(value.typeName)",
                    effect: "reads no Boolean there and takes false (the extension stays off)", fixArguments: fix)
            }
            if case .string(let text) = value, !booleanWords.contains(text.lowercased()) {
                return SuiteKeyMismatch(
                    key: key, found: "the string '\(text)'", effect: "reads it as \(reading)", fixArguments: fix)
            }
            return nil
        case .string:
            guard value.coercedString == nil else { return nil }
            return SuiteKeyMismatch(
                key: key, found: "a value of type \(value.typeName)",
                effect: "reads no string there and answers the theme \"\(defaultTheme)\"", fixArguments: fix)
        case .stringDictionary:
            guard case .dictionary(let members) = value else {
                return SuiteKeyMismatch(
                    key: key, found: "a value of type \(value.typeName)",
                    effect: "reads only a dictionary there and answers an empty vocabulary", fixArguments: fix)
            }
            let skipped = members.filter { word, value in
                if case .string = value { return word.isEmpty }
                return true
            }
            guard let first = skipped.keys.min() else { return nil }
            let example = first.isEmpty ? "an empty word" : "'\(first)' is \(members[first]?.typeName ?? "")"
            return SuiteKeyMismatch(
                key: key,
                found: "a dict with \(skipped.count) of \(members.count) entries not a word → string (\(example))",
                effect: "skips those entries", fixArguments: fix)
        }
    }
}
