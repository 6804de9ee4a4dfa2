/// A strict RFC 8259 pull reader over UTF-8 bytes: the one JSON grammar of
/// the project. `JSONParser` builds `JSONValue` trees with it; the suite
/// builds its own values in one pass and indexes files without building
/// anything (`skipValue`), so the same checks apply everywhere.
///
/// The reader borrows `bytes`: use it only inside the closure that lent the
/// buffer. Escaped lone surrogates, which JavaScript's `JSON.stringify` can
/// produce, read as U+FFFD.
///
/// Objects and arrays are read as
/// ```
/// if try reader.beginObject() {
///     repeat {
///         let key = try reader.readKey()
///         … read or skip the value …
///     } while try reader.nextMember()
/// }
/// ```
public struct JSONReader {
    /// Default limit on nested arrays and objects (`JSONParser.defaultMaximumDepth` is this one).
    public static let defaultMaximumDepth = 64

    /// What the next value is, from its first byte.
    public enum Kind: Equatable, Sendable {
        case object, array, string, number, bool, null

        /// The name `JSONValue.typeName` gives a value of this kind.
        public var typeName: String {
            switch self {
            case .object: return "object"
            case .array: return "array"
            case .string: return "string"
            case .number: return "number"
            case .bool: return "boolean"
            case .null: return "null"
            }
        }
    }

    public let bytes: UnsafeBufferPointer<UInt8>
    public let maximumDepth: Int
    /// The byte offset of the next unread byte.
    public private(set) var offset = 0
    private var depth = 0
    /// True when the last string read or skipped had no escape and no byte
    /// outside ASCII: its text is its value, in any encoder's spelling.
    public private(set) var lastStringWasPlainASCII = true
    /// Refuse (`JSONError.notAsWritten`) what `readValue` would keep otherwise than written: an
    /// integer 64 bits cannot hold (read as the nearest double), a number too small for a double
    /// (read as 0), a key given twice in one object (the last kept). For values a user typed,
    /// whose digits and entries must not be lost unsaid.
    public var asWritten = false
    /// How many more levels of arrays and objects may open.
    public var remainingDepth: Int { maximumDepth - depth }
    private var scratch: [UInt8] = []

    public init(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = defaultMaximumDepth) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// A position to come back to: offset and nesting.
    public struct Mark: Equatable, Sendable {
        public var offset: Int
        public var depth: Int

        public init(offset: Int, depth: Int) {
            self.offset = offset
            self.depth = depth
        }
    }

    /// Where the reader is now.
    public var mark: Mark { Mark(offset: offset, depth: depth) }

    /// Goes back (or forward) to `mark`, as after an error to skip what failed.
    public mutating func reset(to mark: Mark) {
        offset = mark.offset
        depth = mark.depth
    }

    // MARK: - Errors

    func fail(_ reason: String) -> JSONError { .syntax(offset: offset, reason: reason) }

    func unexpected(_ context: String) -> JSONError {
        if offset >= bytes.count { return .syntax(offset: offset, reason: "unexpected end of input \(context)") }
        let b = bytes[offset]
        if b >= 0x80 && utf8SequenceLength(at: offset) == 0 { return .invalidUTF8(offset: offset) }
        if b >= 0x20 && b < 0x7F {
            return .syntax(offset: offset, reason: "unexpected character '\(Character(Unicode.Scalar(b)))' \(context)")
        }
        return .syntax(offset: offset, reason: "unexpected byte 0x\(String(b, radix: 16)) \(context)")
    }

    // MARK: - Structure

    /// Skips JSON white space.
    @inline(__always)
    public mutating func skipSpace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x09, 0x0A, 0x0D: offset += 1
            default: return
            }
        }
    }

    /// The kind of the next value (after white space), without consuming it.
    public mutating func peekKind() throws(JSONError) -> Kind {
        skipSpace()
        guard offset < bytes.count else { throw unexpected("where a value was expected") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw unexpected("where a value was expected")
        }
    }

    /// Requires that only white space is left.
    public mutating func finish() throws(JSONError) {
        skipSpace()
        if offset != bytes.count { throw unexpected("after the value") }
    }

    private mutating func enter() throws(JSONError) {
        depth += 1
        if depth > maximumDepth { throw .tooDeep(limit: maximumDepth) }
    }

    /// Consumes `{`; true when a member follows, false for `{}` (consumed whole).
    public mutating func beginObject() throws(JSONError) -> Bool {
        try begin(UInt8(ascii: "{"), UInt8(ascii: "}"), "where an object was expected")
    }

    /// Consumes `[`; true when an element follows, false for `[]` (consumed whole).
    public mutating func beginArray() throws(JSONError) -> Bool {
        try begin(UInt8(ascii: "["), UInt8(ascii: "]"), "where an array was expected")
    }

    private mutating func begin(_ open: UInt8, _ close: UInt8, _ context: String) throws(JSONError) -> Bool {
        skipSpace()
        guard offset < bytes.count, bytes[offset] == open else { throw unexpected(context) }
        try enter()
        offset += 1
        skipSpace()
        if offset < bytes.count && bytes[offset] == close {
            offset += 1
            depth -= 1
            return false
        }
        return true
    }

    /// Reads a member's key and the colon after it.
    public mutating func readKey() throws(JSONError) -> String {
        try expectKey()
        let key = try readStringBody()
        try expectColon()
        return key
    }

    /// Skips a member's key and the colon after it; returns where the key's
    /// text (inside the quotes) starts and ends.
    public mutating func skipKey() throws(JSONError) -> Range<Int> {
        try expectKey()
        let start = offset + 1
        try skipStringBody()
        let end = offset - 1
        try expectColon()
        return start..<end
    }

    @inline(__always)
    private mutating func expectKey() throws(JSONError) {
        skipSpace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
            throw unexpected("where an object key was expected")
        }
    }

    @inline(__always)
    private mutating func expectColon() throws(JSONError) {
        skipSpace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { throw unexpected("after an object key") }
        offset += 1
    }

    /// After a member's value: true at `,` (another member follows), false at `}`.
    @inline(__always)
    public mutating func nextMember() throws(JSONError) -> Bool {
        try next(UInt8(ascii: "}"), "inside an object")
    }

    /// After an element: true at `,` (another element follows), false at `]`.
    @inline(__always)
    public mutating func nextElement() throws(JSONError) -> Bool {
        try next(UInt8(ascii: "]"), "inside an array")
    }

    @inline(__always)
    private mutating func next(_ close: UInt8, _ context: String) throws(JSONError) -> Bool {
        skipSpace()
        guard offset < bytes.count else { throw unexpected(context) }
        if bytes[offset] == UInt8(ascii: ",") {
            offset += 1
            return true
        }
        if bytes[offset] == close {
            offset += 1
            depth -= 1
            return false
        }
        throw unexpected(context)
    }

    // MARK: - Scalars

    /// Reads `true` or `false`.
    public mutating func readBool() throws(JSONError) -> Bool {
        skipSpace()
        if offset < bytes.count && bytes[offset] == UInt8(ascii: "t") {
            try literal("true")
            return true
        }
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "f") else {
            throw unexpected("where a boolean was expected")
        }
        try literal("false")
        return false
    }

    /// Reads `null`.
    public mutating func readNull() throws(JSONError) {
        skipSpace()
        try literal("null")
    }

    private mutating func literal(_ word: StaticString) throws(JSONError) {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count else { throw fail("truncated literal") }
        for i in 0..<count where bytes[offset + i] != word.utf8Start[i] {
            throw fail("invalid literal")
        }
        offset += count
    }

    /// Reads a number: `.int` when it is an integer that fits 64 bits, else `.double` (or, with
    /// `asWritten`, a larger integer, or one too small for a double, is refused).
    public mutating func readNumber() throws(JSONError) -> JSONValue {
        skipSpace()
        let start = offset
        let isInteger = try scanNumber()
        let text = UnsafeBufferPointer(rebasing: bytes[start..<offset])
        if isInteger, let value = JSONReader.integer(text) { return .int(value) }
        if isInteger && asWritten {
            offset = start
            throw .notAsWritten(
                offset: start,
                reason: "the integer does not fit 64 bits: it would be kept only approximately, as a floating-point "
                    + "number (quote it to keep it as a string)")
        }
        guard let value = Double(String(decoding: text, as: UTF8.self)), value.isFinite else {
            offset = start
            throw fail("number out of range")
        }
        if asWritten && value == 0
            && text.prefix(while: { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") })
                .contains(where: { $0 >= UInt8(ascii: "1") && $0 <= UInt8(ascii: "9") })
        {
            offset = start
            throw .notAsWritten(
                offset: start, reason: "the number is too small for a floating-point number: it would be kept as 0")
        }
        return .double(value)
    }

    /// Skips a number, checking its grammar.
    public mutating func skipNumber() throws(JSONError) {
        skipSpace()
        let start = offset
        _ = try scanNumber()
        // Without an exponent, fewer than 300 integer digits are always a finite double.
        var i = start
        while i < offset && bytes[i] != UInt8(ascii: ".") && bytes[i] | 0x20 != UInt8(ascii: "e") { i += 1 }
        var exponent = false
        for j in i..<offset where bytes[j] | 0x20 == UInt8(ascii: "e") { exponent = true }
        if !exponent && i - start < 300 { return }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            offset = start
            throw fail("number out of range")
        }
    }

    /// Moves past a number's text; true when it has no fraction or exponent.
    private mutating func scanNumber() throws(JSONError) -> Bool {
        var isInteger = true
        guard offset < bytes.count else { throw unexpected("where a number was expected") }
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        guard offset < bytes.count, isDigit(bytes[offset]) else { throw fail("a number needs digits") }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
            if offset < bytes.count && isDigit(bytes[offset]) { throw fail("leading zeros are not allowed") }
        } else {
            while offset < bytes.count && isDigit(bytes[offset]) { offset += 1 }
        }
        if offset < bytes.count && bytes[offset] == UInt8(ascii: ".") {
            isInteger = false
            offset += 1
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw fail("a fraction needs digits") }
            while offset < bytes.count && isDigit(bytes[offset]) { offset += 1 }
        }
        if offset < bytes.count && (bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E")) {
            isInteger = false
            offset += 1
            if offset < bytes.count && (bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")) {
                offset += 1
            }
            guard offset < bytes.count, isDigit(bytes[offset]) else { throw fail("an exponent needs digits") }
            while offset < bytes.count && isDigit(bytes[offset]) { offset += 1 }
        }
        return isInteger
    }

    /// The value of an optionally negative run of digits, or nil when it does not fit `Int`.
    private static func integer(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { i = 1 }
        var value = 0
        while i < text.count {
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let digit = Int(text[i] &- 0x30)
            let (next, o2) =
                negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = next
            i += 1
        }
        return value
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    // MARK: - Strings

    /// Reads a string value.
    public mutating func readString() throws(JSONError) -> String {
        skipSpace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
            throw unexpected("where a string was expected")
        }
        return try readStringBody()
    }

    /// Skips a string value, checking it as `readString` would.
    public mutating func skipString() throws(JSONError) {
        skipSpace()
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else {
            throw unexpected("where a string was expected")
        }
        try skipStringBody()
    }

    /// Length of the valid UTF-8 sequence starting at `i`, or 0.
    func utf8SequenceLength(at i: Int) -> Int {
        let b0 = bytes[i]
        let n = bytes.count
        func cont(_ j: Int) -> Bool { j < n && bytes[j] & 0xC0 == 0x80 }
        switch b0 {
        case 0xC2...0xDF:
            return cont(i + 1) ? 2 : 0
        case 0xE0:
            return i + 1 < n && (0xA0...0xBF).contains(bytes[i + 1]) && cont(i + 2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return cont(i + 1) && cont(i + 2) ? 3 : 0
        case 0xED:  // no UTF-16 surrogates encoded in UTF-8
            return i + 1 < n && (0x80...0x9F).contains(bytes[i + 1]) && cont(i + 2) ? 3 : 0
        case 0xF0:
            return i + 1 < n && (0x90...0xBF).contains(bytes[i + 1]) && cont(i + 2) && cont(i + 3) ? 4 : 0
        case 0xF1...0xF3:
            return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0
        case 0xF4:
            return i + 1 < n && (0x80...0x8F).contains(bytes[i + 1]) && cont(i + 2) && cont(i + 3) ? 4 : 0
        default:
            return 0
        }
    }

    /// Moves over bytes that need no decoding: printable ASCII other than
    /// `"` and `\`, and valid UTF-8 sequences. Eight ASCII bytes at a time
    /// when it can. Clears `lastStringWasPlainASCII` at a byte ≥ 0x80.
    @inline(__always)
    private mutating func scanPlain() throws(JSONError) {
        guard let base = bytes.baseAddress else { return }
        let n = bytes.count
        var i = offset
        defer { offset = i }
        while true {
            while i + 8 <= n {
                // In a word of 8 bytes, flag each byte ≥ 0x80, < 0x20, '"' or '\'. The
                // lowest flag is exact (borrows only run upwards), so skip to it.
                let w = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                let ones: UInt64 = 0x0101_0101_0101_0101
                let control = (w &- ones &* 0x20) & ~w
                let quote = w ^ (ones &* 0x22)
                let slash = w ^ (ones &* 0x5C)
                let special = (control | ((quote &- ones) & ~quote) | ((slash &- ones) & ~slash) | w) & (ones &* 0x80)
                if special != 0 {
                    i += special.trailingZeroBitCount >> 3
                    break
                }
                i += 8
            }
            guard i < n else { return }
            let b = base[i]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") { return }
            if b < 0x20 {
                offset = i
                throw fail("control character in a string must be escaped")
            }
            if b < 0x80 {
                i += 1
            } else {
                lastStringWasPlainASCII = false
                let length = utf8SequenceLength(at: i)
                if length == 0 { throw .invalidUTF8(offset: i) }
                i += length
            }
        }
    }

    /// At an opening quote: reads the string and the closing quote.
    private mutating func readStringBody() throws(JSONError) -> String {
        offset += 1
        lastStringWasPlainASCII = true
        let start = offset
        try scanPlain()
        guard offset < bytes.count else { throw fail("unterminated string") }
        if bytes[offset] == UInt8(ascii: "\"") {
            let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            offset += 1
            return s
        }
        // Escapes: copy the plain runs and decode each escape.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<offset]))
        while offset < bytes.count {
            if bytes[offset] == UInt8(ascii: "\"") {
                offset += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            try decodeEscape(into: true)
            let run = offset
            try scanPlain()
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<offset]))
        }
        throw fail("unterminated string")
    }

    /// At an opening quote: moves past the string and its closing quote.
    private mutating func skipStringBody() throws(JSONError) {
        offset += 1
        lastStringWasPlainASCII = true
        while true {
            try scanPlain()
            guard offset < bytes.count else { throw fail("unterminated string") }
            if bytes[offset] == UInt8(ascii: "\"") {
                offset += 1
                return
            }
            try decodeEscape(into: false)
        }
    }

    /// At a backslash: checks one escape and, when `keep`, appends what it means to `scratch`.
    private mutating func decodeEscape(into keep: Bool) throws(JSONError) {
        lastStringWasPlainASCII = false
        offset += 1
        guard offset < bytes.count else { throw fail("unterminated string") }
        let e = bytes[offset]
        offset += 1
        let decoded: UInt8
        switch e {
        case UInt8(ascii: "\""): decoded = 0x22
        case UInt8(ascii: "\\"): decoded = 0x5C
        case UInt8(ascii: "/"): decoded = 0x2F
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            let scalar = try unicodeEscape()
            if keep { UTF8.encode(scalar) { scratch.append($0) } }
            return
        default:
            offset -= 1
            throw fail("invalid escape")
        }
        if keep { scratch.append(decoded) }
    }

    private mutating func hex4() throws(JSONError) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[offset]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw fail("invalid \\u escape")
            }
            v = v << 4 | d
            offset += 1
        }
        return v
    }

    /// After `\u`: the scalar, joining a surrogate pair; a lone surrogate is U+FFFD.
    private mutating func unicodeEscape() throws(JSONError) -> Unicode.Scalar {
        var code = try hex4()
        if (0xD800...0xDBFF).contains(code) {
            // A high surrogate: take the low one if it follows.
            if offset + 6 <= bytes.count && bytes[offset] == UInt8(ascii: "\\")
                && bytes[offset + 1] == UInt8(ascii: "u")
            {
                let save = offset
                offset += 2
                let low = try hex4()
                if (0xDC00...0xDFFF).contains(low) {
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    offset = save
                    code = 0xFFFD
                }
            } else {
                code = 0xFFFD
            }
        } else if (0xDC00...0xDFFF).contains(code) {
            code = 0xFFFD
        }
        return Unicode.Scalar(code) ?? "\u{FFFD}"
    }

    // MARK: - Whole values

    /// Reads the next value as a tree.
    public mutating func readValue() throws(JSONError) -> JSONValue {
        switch try peekKind() {
        case .object:
            // Room for a typical request or reply without regrowing; large objects still grow.
            var members = [String: JSONValue](minimumCapacity: 6)
            if try beginObject() {
                repeat {
                    let at = offset
                    let key = try readKey()
                    if asWritten && members[key] != nil {
                        offset = at
                        throw .notAsWritten(
                            offset: at,
                            reason: "the key '\(DisplayText.escaped(key))' is given twice in one object: only the "
                                + "last would be kept")
                    }
                    members[key] = try readValue()
                } while try nextMember()
            }
            return .object(members)
        case .array:
            var elements: [JSONValue] = []
            if try beginArray() {
                repeat { elements.append(try readValue()) } while try nextElement()
            }
            return .array(elements)
        case .string: return .string(try readStringBody())
        case .number: return try readNumber()
        case .bool: return .bool(try readBool())
        case .null:
            try readNull()
            return .null
        }
    }

    /// Skips the next value, checking it exactly as `readValue` would, and
    /// returns the range of its text.
    @discardableResult
    public mutating func skipValue() throws(JSONError) -> Range<Int> {
        let kind = try peekKind()
        let start = offset
        switch kind {
        case .object:
            if try beginObject() {
                repeat {
                    _ = try skipKey()
                    try skipValue()
                } while try nextMember()
            }
        case .array:
            if try beginArray() {
                repeat { try skipValue() } while try nextElement()
            }
        case .string: try skipStringBody()
        case .number: try skipNumber()
        case .bool: _ = try readBool()
        case .null: try readNull()
        }
        return start..<offset
    }
}
