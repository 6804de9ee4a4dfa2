/// The page-rewriting rules applied to a string: the Swift twin of
/// `extension/content/engine.js` (`compileVocabulary` + `replaceText`), with
/// the same semantics, checked by both against one table of cases
/// (`extension/test/fixtures/transform-cases.json`).
///
/// Text is cut into tokens: a word is a maximal run of letters, marks and
/// digits (`\p{L}\p{M}\p{N}`), any other character that is not white space
/// (JavaScript's `\s`) is a token of its own. Keys match whole tokens,
/// case-insensitively; phrases match across white space where the key has
/// it and without where it has none; at each token the longest phrase wins;
/// the replacement takes the matched text's case (BLUE → BLAUW, Blue →
/// Blauw, blue → the replacement as written).
public struct Vocabulary {
    /// A token in lower case, as UTF-8 bytes: compared exactly, as
    /// JavaScript compares strings (a String key would equate composed and
    /// decomposed accents, which the extension does not).
    typealias Word = [UInt8]

    final class Node {
        var replacement: String?
        var spaced: [Word: Node]?
        var adjacent: [Word: Node]?
    }

    private let root: [Word: Node]
    /// Entries that became keys (empty keys and duplicates left out).
    public let count: Int

    /// Compiles `pairs` in order; with two keys that differ only in case,
    /// the one already in lower case wins (as in the extension).
    public init(_ pairs: [(String, String)]) {
        var root: [Word: Node] = [:]
        var count = 0
        for (word, value) in pairs {
            let tokens = Vocabulary.tokens(of: word)
            if tokens.isEmpty { continue }
            var entry: Node?
            for token in tokens {
                let lower = Word(Vocabulary.lower(token.text).utf8)
                let next: Node
                if let entry {
                    if token.spacedBefore {
                        if entry.spaced == nil { entry.spaced = [:] }
                        next = entry.spaced?[lower] ?? Node()
                        entry.spaced?[lower] = next
                    } else {
                        if entry.adjacent == nil { entry.adjacent = [:] }
                        next = entry.adjacent?[lower] ?? Node()
                        entry.adjacent?[lower] = next
                    }
                } else {
                    next = root[lower] ?? Node()
                    root[lower] = next
                }
                entry = next
            }
            guard let entry else { continue }
            if entry.replacement != nil {
                let key = tokens.map { ($0.spacedBefore ? " " : "") + Vocabulary.lower($0.text) }.joined()
                if !word.unicodeScalars.elementsEqual(key.unicodeScalars) { continue }
            } else {
                count += 1
            }
            entry.replacement = value
        }
        self.root = root
        self.count = count
    }

    /// `text` with every key replaced; `text` itself when nothing matched.
    public func apply(to text: String) -> String {
        if root.isEmpty || text.isEmpty { return text }
        let tokens = Vocabulary.tokens(of: text)
        let words = tokens.map { Word(Vocabulary.lower($0.text).utf8) }
        let scalars = text.unicodeScalars
        let utf8 = text.utf8
        // Bytes, not a String.UnicodeScalarView: appending to the view copies it each time.
        var out: [UInt8] = []
        var copied = scalars.startIndex
        var changed = false
        var i = 0
        let n = tokens.count
        func touching(_ a: Int, _ b: Int) -> Bool { tokens[a].end == tokens[b].start }
        func endsClean(_ j: Int) -> Bool {
            if j + 1 >= n || !touching(j, j + 1) { return true }
            return tokens[j].isWord || !tokens[j + 1].isWord
        }
        while i < n {
            defer { i += 1 }
            guard var entry = root[words[i]] else { continue }
            // A phrase that starts with a non-word token may not touch a word before it.
            if i > 0 && touching(i - 1, i) && !tokens[i].isWord && tokens[i - 1].isWord { continue }
            var best = -1
            var bestReplacement = ""
            var j = i
            while true {
                if let replacement = entry.replacement, endsClean(j) {
                    best = j
                    bestReplacement = replacement
                }
                if j + 1 >= n { break }
                guard let next = touching(j, j + 1) ? entry.adjacent : entry.spaced,
                    let found = next[words[j + 1]]
                else { break }
                j += 1
                entry = found
            }
            if best < 0 { continue }
            let matched = String(scalars[tokens[i].start..<tokens[best].end])
            let cased = Vocabulary.keepCase(matched, bestReplacement)
            if !cased.unicodeScalars.elementsEqual(matched.unicodeScalars) {
                if out.isEmpty { out.reserveCapacity(utf8.count + utf8.count / 4) }
                out.append(contentsOf: utf8[copied..<tokens[i].start])
                out.append(contentsOf: cased.utf8)
                copied = tokens[best].end
                changed = true
            }
            i = best
        }
        if !changed { return text }
        out.append(contentsOf: utf8[copied...])
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: tokens

    struct Token {
        var start: String.UnicodeScalarView.Index
        var end: String.UnicodeScalarView.Index
        var isWord: Bool
        var spacedBefore: Bool
        var text: Substring.UnicodeScalarView
    }

    static func tokens(of text: String) -> [Token] {
        let scalars = text.unicodeScalars
        var tokens: [Token] = []
        var i = scalars.startIndex
        var gap = false
        while i < scalars.endIndex {
            let s = scalars[i]
            if isSpace(s) {
                gap = true
                i = scalars.index(after: i)
                continue
            }
            let start = i
            let word = isWordScalar(s)
            i = scalars.index(after: i)
            if word { while i < scalars.endIndex && isWordScalar(scalars[i]) { i = scalars.index(after: i) } }
            tokens.append(
                Token(
                    start: start, end: i, isWord: word, spacedBefore: gap && !tokens.isEmpty,
                    text: scalars[start..<i]))
            gap = false
        }
        return tokens
    }

    /// `\p{L}`, `\p{M}` or `\p{N}`.
    static func isWordScalar(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII {
            let v = s.value | 0x20
            return (v >= 0x61 && v <= 0x7A) || (s.value >= 0x30 && s.value <= 0x39)
        }
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default: return false
        }
    }

    /// JavaScript's `\s`: ECMAScript white space and line terminators.
    static func isSpace(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
            return true
        default: return false
        }
    }

    // MARK: case, as JavaScript's toLowerCase / toUpperCase

    /// Full lower-case mapping, with Greek final sigma as JavaScript does it.
    static func lower<S: Collection>(_ scalars: S) -> String where S.Element == Unicode.Scalar {
        if scalars.allSatisfy(\.isASCII) {
            return String(
                decoding: scalars.map { UInt8($0.value) | ((0x41...0x5A).contains($0.value) ? 0x20 : 0) }, as: UTF8.self
            )
        }
        let array = Array(scalars)
        var out = ""
        for (index, s) in array.enumerated() {
            if s.value == 0x03A3 {
                let before = array[..<index].reversed().first { !$0.properties.isCaseIgnorable }
                let after = array[(index + 1)...].first { !$0.properties.isCaseIgnorable }
                if before?.properties.isCased == true && after?.properties.isCased != true {
                    out.unicodeScalars.append("\u{03C2}")
                    continue
                }
            }
            out += s.properties.lowercaseMapping
        }
        return out
    }

    static func lower(_ text: String) -> String { lower(text.unicodeScalars) }

    static func upper(_ text: String) -> String {
        var out = ""
        for s in text.unicodeScalars { out += s.properties.uppercaseMapping }
        return out
    }

    static func hasCase(_ s: Unicode.Scalar) -> Bool {
        let text = String(s)
        return !upper(text).unicodeScalars.elementsEqual(lower(text).unicodeScalars)
    }

    static func same(_ a: String, _ b: String) -> Bool { a.unicodeScalars.elementsEqual(b.unicodeScalars) }

    /// Gives `replacement` the case pattern of `matched`.
    static func keepCase(_ matched: String, _ replacement: String) -> String {
        if same(matched, lower(matched)) { return replacement }
        let cased = matched.unicodeScalars.filter(hasCase)
        if cased.count > 1 && same(matched, upper(matched)) { return upper(replacement) }
        if let first = cased.first {
            let text = String(first)
            if same(text, upper(text)) && !same(text, lower(text)) {
                var out = String.UnicodeScalarView()
                var done = false
                for s in replacement.unicodeScalars {
                    if !done && hasCase(s) {
                        out.append(contentsOf: upper(String(s)).unicodeScalars)
                        done = true
                    } else {
                        out.append(s)
                    }
                }
                return String(out)
            }
        }
        return replacement
    }
}
