import BridgeJSON
import BridgeSystem
import SharedSuite

/// Turns `write` operands into a suite value, the way `defaults write` does:
/// `VALUE` alone is a string; `-bool`, `-int`, `-float`, `-string`, `-date`,
/// `-data` (base64), `-array V…`, `-dict K V…` and `-json TEXT` choose the type.
public enum ValueParser {
    /// The type words `write` takes, declared once: help, completions and errors list these.
    public static let typeFlags = ["-bool", "-int", "-float", "-string", "-date", "-data", "-array", "-dict", "-json"]
    /// The other spellings `defaults` takes, and the type word each means.
    static let aliases = ["-integer": "-int", "-double": "-float"]

    /// The type word `word` names (`-double` is `-float`), nil when it names none.
    static func type(_ word: String) -> String? { typeFlags.contains(word) ? word : aliases[word] }

    /// Whether `word` is meant as a type word: a dash and a letter, not a number such as `-5`.
    static func looksLikeType(_ word: String) -> Bool {
        word.hasPrefix("-") && word.count > 1 && Double(word) == nil
    }

    /// Parses the operands after the key.
    /// - Throws: `CLIError` with status 64 for a missing value or an unknown type word, 65 for
    ///   a value that is not of the type.
    public static func parse(_ operands: [String]) throws(CLIError) -> SuiteValue {
        guard let word = operands.first else { throw .usage("write needs a value", verb: "write") }
        guard let first = type(word) else {
            if looksLikeType(word) {
                let known = "known: " + typeFlags.joined(separator: " ")
                throw .usage(
                    Suggestion.message("unknown type \(word)", for: word, among: typeFlags) + " (\(known))",
                    verb: "write")
            }
            if operands.count != 1 {
                throw .usage("write takes one value; quote it, or use -array / -dict for several", verb: "write")
            }
            return .string(word)
        }
        let rest = Array(operands.dropFirst())
        func single() throws(CLIError) -> String {
            guard rest.count == 1 else { throw .usage("\(word) takes exactly one value", verb: "write") }
            return rest[0]
        }
        switch first {
        case "-bool":
            switch try single().lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            case let other: throw CLIError(.data, "'\(other)' is not a boolean (true, false, yes, no, 1, 0)")
            }
        case "-int":
            let text = try single()
            guard let value = Int(text) else { throw CLIError(.data, "'\(text)' is not a 64-bit integer") }
            return .int(value)
        case "-float":
            let text = try single()
            guard let value = Double(text), value.isFinite else {
                throw CLIError(.data, "'\(text)' is not a finite number")
            }
            // A nonzero number too small for a double would be stored as 0, as -json refuses to.
            let mantissa = text.prefix { !"eEpP".contains($0) }
            if value == 0 && mantissa.contains(where: { !"0.+-xX".contains($0) }) {
                throw CLIError(.data, "'\(text)' is too small for a floating-point number: it would be stored as 0")
            }
            return .double(value)
        case "-string":
            return .string(try single())
        case "-date":
            let text = try single()
            guard let date = WallTime(iso8601: text) else {
                throw CLIError(
                    .data,
                    "'\(text)' is not an ISO 8601 date from 0001-01-01 to 9999-12-31 (2026-11-29 or 2026-11-29T18:57:02Z)"
                )
            }
            return .date(date)
        case "-data":
            let text = try single()
            guard let bytes = Base64.decode(text) else { throw CLIError(.data, "'\(text.prefix(40))' is not base64") }
            return .data(bytes)
        case "-array":
            return .array(rest.map(SuiteValue.string))
        case "-dict":
            guard rest.count % 2 == 0 else {
                throw .usage("-dict takes key value pairs; got an odd count", verb: "write")
            }
            var members: [String: SuiteValue] = [:]
            for pair in stride(from: 0, to: rest.count, by: 2) {
                // Only the last of a word given twice would be kept, as -json refuses to.
                if members[rest[pair]] != nil {
                    throw CLIError(
                        .data,
                        "the key '\(DisplayText.escaped(rest[pair]))' is given twice: only the last would be kept; "
                            + "nothing was written")
                }
                members[rest[pair]] = .string(rest[pair + 1])
            }
            return .dictionary(members)
        default:  // -json
            let text = try single()
            let json: JSONValue
            do {
                json = try JSONParser.parse(text, maximumDepth: Suite.maximumValueDepth, asWritten: true)
            } catch {
                throw CLIError(.data, "cannot read the -json value: \(error)")
            }
            do {
                return try SuiteValue(json: json)
            } catch {
                throw CLIError(.data, "the -json value cannot be stored: \(error)")
            }
        }
    }
}
