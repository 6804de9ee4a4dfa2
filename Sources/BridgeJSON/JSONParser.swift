/// A strict RFC 8259 parser over UTF-8 bytes, without Foundation.
///
/// Duplicate object keys: the last one wins. Escaped lone surrogates, which
/// JavaScript's `JSON.stringify` can produce, become U+FFFD.
public struct JSONParser {
    /// Default limit on nested arrays and objects.
    public static let defaultMaximumDepth = 64

    /// Parses one JSON text that must span all of `bytes` (surrounding white space allowed).
    public static func parse(_ bytes: [UInt8], maximumDepth: Int = defaultMaximumDepth) throws(JSONError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) -> JSONValue in
            var parser = Parser(bytes: buffer, maximumDepth: maximumDepth)
            return try parser.parseDocument()
        }
    }

    /// Parses a JSON text held in a string.
    public static func parse(_ text: String, maximumDepth: Int = defaultMaximumDepth) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8), maximumDepth: maximumDepth)
    }
}

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var index = 0
    var depth = 0
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    mutating func parseDocument() throws(JSONError) -> JSONValue {
        skipSpace()
        let value = try parseValue()
        skipSpace()
        if index != bytes.count { throw unexpected("after the value") }
        return value
    }

    func fail(_ reason: String) -> JSONError { .syntax(offset: index, reason: reason) }

    func unexpected(_ context: String) -> JSONError {
        if index >= bytes.count { return .syntax(offset: index, reason: "unexpected end of input \(context)") }
        let b = bytes[index]
        if b >= 0x80 && !validUTF8Sequence(at: index) { return .invalidUTF8(offset: index) }
        if b >= 0x20 && b < 0x7F {
            return .syntax(offset: index, reason: "unexpected character '\(Character(Unicode.Scalar(b)))' \(context)")
        }
        return .syntax(offset: index, reason: "unexpected byte 0x\(String(b, radix: 16)) \(context)")
    }

    mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONError) -> JSONValue {
        guard index < bytes.count else { throw unexpected("where a value was expected") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw unexpected("where a value was expected")
        }
    }

    mutating func literal(_ word: StaticString) throws(JSONError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("truncated literal") }
        for i in 0..<count where bytes[index + i] != word.utf8Start[i] {
            throw fail("invalid literal")
        }
        index += count
    }

    mutating func enter() throws(JSONError) {
        depth += 1
        if depth > maximumDepth { throw .tooDeep(limit: maximumDepth) }
    }

    mutating func parseObject() throws(JSONError) -> JSONValue {
        try enter()
        index += 1
        // Room for a typical request or reply without regrowing; large objects still grow.
        var members = [String: JSONValue](minimumCapacity: 6)
        skipSpace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw unexpected("where an object key was expected")
            }
            let key = try parseString()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw unexpected("after an object key")
            }
            index += 1
            skipSpace()
            members[key] = try parseValue()
            skipSpace()
            guard index < bytes.count else { throw unexpected("inside an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .object(members)
            }
            throw unexpected("inside an object")
        }
    }

    mutating func parseArray() throws(JSONError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipSpace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipSpace()
            elements.append(try parseValue())
            skipSpace()
            guard index < bytes.count else { throw unexpected("inside an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(elements)
            }
            throw unexpected("inside an array")
        }
    }

    mutating func parseNumber() throws(JSONError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("a number needs digits") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count && isDigit(bytes[index]) { throw fail("leading zeros are not allowed") }
        } else {
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("a fraction needs digits") }
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            isInteger = false
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("an exponent needs digits") }
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else {
            index = start
            throw fail("number out of range")
        }
        return .double(value)
    }

    func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

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

    func validUTF8Sequence(at i: Int) -> Bool { utf8SequenceLength(at: i) > 0 }

    mutating func parseString() throws(JSONError) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes — the bytes are the string.
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw fail("control character in a string must be escaped") }
            if b < 0x80 {
                index += 1
            } else {
                let n = utf8SequenceLength(at: index)
                if n == 0 { throw .invalidUTF8(offset: index) }
                index += n
            }
        }
        guard index < bytes.count else { throw fail("unterminated string") }
        // Slow path: copy what we have, then decode escapes.
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if b == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { break }
                let e = bytes[index]
                index += 1
                switch e {
                case UInt8(ascii: "\""): scratch.append(0x22)
                case UInt8(ascii: "\\"): scratch.append(0x5C)
                case UInt8(ascii: "/"): scratch.append(0x2F)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"): try appendUnicodeEscape()
                default:
                    index -= 1
                    throw fail("invalid escape")
                }
                continue
            }
            if b < 0x20 { throw fail("control character in a string must be escaped") }
            if b < 0x80 {
                scratch.append(b)
                index += 1
            } else {
                let n = utf8SequenceLength(at: index)
                if n == 0 { throw .invalidUTF8(offset: index) }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + n)]))
                index += n
            }
        }
        throw fail("unterminated string")
    }

    mutating func hex4() throws(JSONError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw fail("invalid \\u escape")
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    mutating func appendUnicodeEscape() throws(JSONError) {
        var code = try hex4()
        if (0xD800...0xDBFF).contains(code) {
            // A high surrogate: take the low one if it follows.
            if index + 6 <= bytes.count && bytes[index] == UInt8(ascii: "\\") && bytes[index + 1] == UInt8(ascii: "u") {
                let save = index
                index += 2
                let low = try hex4()
                if (0xDC00...0xDFFF).contains(low) {
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    index = save
                    code = 0xFFFD
                }
            } else {
                code = 0xFFFD
            }
        } else if (0xDC00...0xDFFF).contains(code) {
            code = 0xFFFD
        }
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        UTF8.encode(scalar) { scratch.append($0) }
    }
}
