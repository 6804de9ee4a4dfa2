/// A JavaScript file as tokens, enough to find what an imported Safari
/// extension calls: identifiers, string literals, punctuation, with their
/// lines. Comments and regular-expression literals are skipped, so a word in
/// a comment is not a call. Not a parser: malformed text gives tokens, never
/// an error, and a regular expression is told from a division by the token
/// before it (as engines do, without the rare cases that need a grammar).
struct JavaScriptTokens {
    enum Kind: Equatable {
        /// A name or keyword (`browser`, `import`, `$el`).
        case identifier
        /// A string literal's value (quotes removed, simple escapes read); a template literal
        /// without `${…}` too.
        case string
        /// A template literal with substitutions: its value is not known.
        case template
        case number
        /// One punctuation character (`.`, `(`, `{`, `,`, `:`, …); `?.` is kept as `.`.
        case punctuation
    }

    struct Token: Equatable {
        var kind: Kind
        var text: String
        /// 1-based.
        var line: Int
    }

    let tokens: [Token]
    /// For each opening bracket's index, the index of the bracket that closes it (or the end): found
    /// once, so walking over a bracketed part is one step, however large the file.
    private let closing: [Int: Int]

    init(_ bytes: [UInt8]) {
        var reader = Reader(bytes: bytes)
        tokens = reader.all()
        var closing: [Int: Int] = [:]
        var open: [Int] = []
        for (index, token) in tokens.enumerated() where token.kind == .punctuation {
            switch token.text {
            case "(", "[", "{": open.append(index)
            case ")", "]", "}": if let start = open.popLast() { closing[start] = index }
            default: break
            }
        }
        for start in open { closing[start] = tokens.count }
        self.closing = closing
    }

    init(_ text: String) { self.init(Array(text.utf8)) }

    subscript(index: Int) -> Token? { tokens.indices.contains(index) ? tokens[index] : nil }

    /// True when the token at `index` is the punctuation `character`.
    func isPunctuation(_ index: Int, _ character: String) -> Bool {
        self[index].map { $0.kind == .punctuation && $0.text == character } ?? false
    }

    /// True when the token at `index` opens a bracket (`(`, `[`, `{`).
    func isOpening(_ index: Int) -> Bool { closing[index] != nil }

    /// True when the token at `index` is the identifier `name`.
    func isIdentifier(_ index: Int, _ name: String) -> Bool {
        self[index].map { $0.kind == .identifier && $0.text == name } ?? false
    }

    /// The index just past the bracket that closes the one at `open` (`(`, `[` or `{`), or the end.
    func skipBalanced(from open: Int) -> Int {
        guard let close = closing[open] else { return open + 1 }
        return min(close + 1, tokens.count)
    }

    /// The arguments of the call whose `(` is at `open`: each as its range of token indices.
    func arguments(at open: Int) -> [Range<Int>] {
        guard isPunctuation(open, "(") else { return [] }
        let end = skipBalanced(from: open) - 1
        var out: [Range<Int>] = []
        var start = open + 1
        var index = open + 1
        while index < end {
            let token = tokens[index]
            if closing[index] != nil {
                index = skipBalanced(from: index)
                continue
            }
            if token.kind == .punctuation && token.text == "," {
                out.append(start..<index)
                start = index + 1
            }
            index += 1
        }
        if start < end { out.append(start..<end) }
        return out
    }

    // MARK: Reading

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        var out: [Token] = []

        mutating func all() -> [Token] {
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x0A {
                    line += 1
                    index += 1
                } else if byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0B || byte == 0x0C {
                    index += 1
                } else if byte == UInt8(ascii: "/") {
                    slash()
                } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                    quoted(byte)
                } else if byte == UInt8(ascii: "`") {
                    template()
                } else if isIdentifierStart(byte) {
                    identifier()
                } else if byte >= 0x30 && byte <= 0x39 {
                    number()
                } else {
                    punctuation(byte)
                }
            }
            return out
        }

        func isIdentifierStart(_ b: UInt8) -> Bool {
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x24 || b >= 0x80
                || b == UInt8(ascii: "#")
        }

        func isIdentifierPart(_ b: UInt8) -> Bool { isIdentifierStart(b) || (b >= 0x30 && b <= 0x39) }

        mutating func identifier() {
            let start = index
            index += 1
            while index < bytes.count && isIdentifierPart(bytes[index]) { index += 1 }
            out.append(
                Token(kind: .identifier, text: String(decoding: bytes[start..<index], as: UTF8.self), line: line))
        }

        mutating func number() {
            let start = index
            while index < bytes.count && (isIdentifierPart(bytes[index]) || bytes[index] == UInt8(ascii: ".")) {
                index += 1
            }
            out.append(Token(kind: .number, text: String(decoding: bytes[start..<index], as: UTF8.self), line: line))
        }

        mutating func punctuation(_ byte: UInt8) {
            // `?.` is member access; `?` alone is the conditional.
            if byte == UInt8(ascii: "?") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: ".")
                && !(index + 2 < bytes.count && bytes[index + 2] >= 0x30 && bytes[index + 2] <= 0x39)
            {
                out.append(Token(kind: .punctuation, text: ".", line: line))
                index += 2
                return
            }
            out.append(Token(kind: .punctuation, text: String(UnicodeScalar(byte)), line: line))
            index += 1
        }

        mutating func slash() {
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if next == UInt8(ascii: "/") {
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
            } else if next == UInt8(ascii: "*") {
                index += 2
                while index < bytes.count
                    && !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count
                        && bytes[index + 1] == UInt8(ascii: "/"))
                {
                    if bytes[index] == 0x0A { line += 1 }
                    index += 1
                }
                index += 2
            } else if regexMayStart() {
                regex()
            } else {
                punctuation(UInt8(ascii: "/"))
            }
        }

        /// A `/` starts a regular expression after an operator, an opening bracket, a comma or
        /// a keyword such as `return`; after a name, a number, a string or a closing bracket it divides.
        func regexMayStart() -> Bool {
            guard let last = out.last else { return true }
            switch last.kind {
            case .identifier:
                return [
                    "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do",
                    "else", "yield", "await",
                ]
                .contains(last.text)
            case .number, .string, .template: return false
            case .punctuation: return !(last.text == ")" || last.text == "]" || last.text == "}")
            }
        }

        mutating func regex() {
            index += 1
            var inClass = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x0A { return }  // not a regular expression after all: leave the rest to read
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "[") { inClass = true }
                if byte == UInt8(ascii: "]") { inClass = false }
                index += 1
                if byte == UInt8(ascii: "/") && !inClass { break }
            }
            while index < bytes.count && isIdentifierPart(bytes[index]) { index += 1 }  // flags
            out.append(Token(kind: .punctuation, text: "regex", line: line))
        }

        mutating func quoted(_ quote: UInt8) {
            let startLine = line
            index += 1
            var value: [UInt8] = []
            while index < bytes.count && bytes[index] != quote {
                if bytes[index] == 0x0A { break }  // unterminated: stop at the line's end
                if bytes[index] == UInt8(ascii: "\\") && index + 1 < bytes.count {
                    if bytes[index + 1] == 0x0A { line += 1 }
                    value += escape()
                    continue
                }
                value.append(bytes[index])
                index += 1
            }
            index += 1
            out.append(Token(kind: .string, text: String(decoding: value, as: UTF8.self), line: startLine))
        }

        /// The escape at `index` (its backslash) as UTF-8, moving past it: `\n`, `\t`, `\xHH`,
        /// `\uHHHH`, `\u{H…}`, or the character itself.
        mutating func escape() -> [UInt8] {
            let kind = bytes[index + 1]
            index += 2
            var digits: ArraySlice<UInt8> = []
            switch kind {
            case UInt8(ascii: "n"): return [0x0A]
            case UInt8(ascii: "t"): return [0x09]
            case UInt8(ascii: "x"): digits = bytes[index..<min(index + 2, bytes.count)]
            case UInt8(ascii: "u"):
                if index < bytes.count && bytes[index] == UInt8(ascii: "{") {
                    let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")) ?? index
                    let value = UInt32(String(decoding: bytes[(index + 1)..<close], as: UTF8.self), radix: 16)
                    index = close + 1
                    return Array(String(value.flatMap(Unicode.Scalar.init).map(Character.init) ?? "?").utf8)
                }
                digits = bytes[index..<min(index + 4, bytes.count)]
            default: return [kind]
            }
            index += digits.count
            let value = UInt32(String(decoding: digits, as: UTF8.self), radix: 16)
            return Array(String(value.flatMap(Unicode.Scalar.init).map(Character.init) ?? "?").utf8)
        }

        mutating func template() {
            let startLine = line
            index += 1
            var value: [UInt8] = []
            var substituted = false
            while index < bytes.count && bytes[index] != UInt8(ascii: "`") {
                let byte = bytes[index]
                if byte == 0x0A { line += 1 }
                if byte == UInt8(ascii: "\\") && index + 1 < bytes.count {
                    value += escape()
                    continue
                }
                if byte == UInt8(ascii: "$") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "{") {
                    substituted = true
                    skipSubstitution()
                    continue
                }
                value.append(byte)
                index += 1
            }
            index += 1
            out.append(
                Token(
                    kind: substituted ? .template : .string, text: String(decoding: value, as: UTF8.self),
                    line: startLine))
        }

        /// Skips `${ … }`, nested templates and strings included.
        mutating func skipSubstitution() {
            index += 2
            var depth = 1
            while index < bytes.count && depth > 0 {
                let byte = bytes[index]
                switch byte {
                case 0x0A:
                    line += 1
                    index += 1
                case UInt8(ascii: "{"):
                    depth += 1
                    index += 1
                case UInt8(ascii: "}"):
                    depth -= 1
                    index += 1
                case UInt8(ascii: "'"), UInt8(ascii: "\""):
                    let before = out.count
                    quoted(byte)
                    out.removeSubrange(before...)
                case UInt8(ascii: "`"):
                    let before = out.count
                    template()
                    out.removeSubrange(before...)
                default: index += 1
                }
            }
        }
    }
}
