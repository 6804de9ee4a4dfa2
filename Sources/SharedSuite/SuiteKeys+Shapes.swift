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

}

/// A known key stored with a value the host will not read as the user meant.
public struct SuiteKeyMismatch: Equatable, Sendable {
    /// The key.
    public var key: String
    /// What was found, in the CLI's type words (`array`, or `dict with 2 entries that are not strings`).
    public var found: String
    /// What the host does with it, as a sentence part ("answers an empty vocabulary").
    public var effect: String
    /// The value that stores it right and keeps what it holds (an array of word, replacement
    /// pairs as the dictionary it meant; numbers in a vocabulary as their text); for a flag or
    /// the theme, a value of the right type. Nil when no value keeps what is there: a fix then
    /// needs a person (`write` of a whole vocabulary replaces it).
    public var suggested: SuiteValue?

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
        switch shape {
        case .bool:
            guard let reading = value.coercedBool else {
                return SuiteKeyMismatch(
                    key: key, found: "a value of type \(value.typeName)",
                    effect: "reads no Boolean there and takes false (the extension stays off)", suggested: .bool(true))
            }
            if case .string(let text) = value, !booleanWords.contains(text.lowercased()) {
                return SuiteKeyMismatch(
                    key: key, found: "the string '\(text)'", effect: "reads it as \(reading)",
                    suggested: .bool(text.lowercased() == "on" || reading))
            }
            return nil
        case .string:
            guard value.coercedString == nil else { return nil }
            return SuiteKeyMismatch(
                key: key, found: "a value of type \(value.typeName)",
                effect: "reads no string there and answers the theme \"\(defaultTheme)\"",
                suggested: .string(defaultTheme))
        case .stringDictionary:
            guard case .dictionary(let members) = value else {
                return SuiteKeyMismatch(
                    key: key, found: "a value of type \(value.typeName)",
                    effect: "reads only a dictionary there and answers an empty vocabulary",
                    suggested: pairs(value))
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
                effect: "skips those entries", suggested: asText(members))
        }
    }

    /// An array of strings, two by two, as the word → replacement dictionary it was meant to be
    /// (`write vocabulary -array blue blauw`); nil for anything else.
    static func pairs(_ value: SuiteValue) -> SuiteValue? {
        guard case .array(let items) = value, !items.isEmpty, items.count % 2 == 0 else { return nil }
        var members: [String: SuiteValue] = [:]
        for index in stride(from: 0, to: items.count, by: 2) {
            guard case .string(let word) = items[index], !word.isEmpty, members[word] == nil,
                case .string = items[index + 1]
            else { return nil }
            members[word] = items[index + 1]
        }
        return .dictionary(members)
    }

    /// A vocabulary whose numbers and Booleans are written as their text, so the host reads
    /// every entry; nil when an entry has no text of its own (an empty word, an array, a date).
    static func asText(_ members: [String: SuiteValue]) -> SuiteValue? {
        var text: [String: SuiteValue] = [:]
        for (word, value) in members {
            guard !word.isEmpty else { return nil }
            switch value {
            case .string: text[word] = value
            case .int(let n): text[word] = .string(String(n))
            case .double(let d): text[word] = .string(String(d))
            case .bool(let b): text[word] = .string(String(b))
            default: return nil
            }
        }
        return .dictionary(text)
    }
}
