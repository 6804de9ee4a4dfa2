/// Serializes `JSONValue` to UTF-8 JSON without Foundation.
///
/// Object keys are written in UTF-8 byte order, so output is deterministic.
/// Strings are escaped minimally (quote, backslash, control characters);
/// everything else, U+2028 included, is written as its UTF-8 bytes, so any
/// string round-trips exactly. Non-finite doubles cannot occur in parsed
/// values and are written as `null`.
public struct JSONWriter {
    /// Indentation: nil for compact output.
    public var indent: String?

    public init(indent: String? = nil) { self.indent = indent }

    /// Compact UTF-8 bytes of `value`.
    public static func bytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        JSONWriter().write(value, into: &out, level: 0)
        return out
    }

    /// `value` as a compact string.
    public static func string(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    /// `value` as a pretty string with two-space indentation.
    public static func prettyString(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        JSONWriter(indent: "  ").write(value, into: &out, level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// `value` pretty-printed with a final newline: the bytes of a JSON file.
    public static func prettyBytes(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        JSONWriter(indent: "  ").write(value, into: &out, level: 0)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// Appends `value` to `out`.
    public func write(_ value: JSONValue, into out: inout [UInt8], level: Int) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): JSONWriter.writeInteger(i, into: &out)
        case .double(let d): out.append(contentsOf: JSONWriter.format(d).utf8)
        case .string(let s): JSONWriter.writeString(s, into: &out)
        case .array(let elements):
            if elements.isEmpty {
                out.append(contentsOf: "[]".utf8)
                return
            }
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                newline(&out, level + 1)
                write(element, into: &out, level: level + 1)
            }
            newline(&out, level)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            // The members go through the one object writer (JSONObjectWriter): braces, separators,
            // keys and indentation are decided there, for this writer and every caller alike.
            var object = JSONObjectWriter(into: &out, writer: self, level: level, checksOrder: false)
            // UTF-8 byte order: String's `<` is not a total order when NFC and NFD keys mix
            // ("é0" vs "e\u{301}": neither is less), so `sorted()` followed hash order there.
            // Small objects (replies): sort the pairs, no second hash lookup per key. Large ones
            // (a vocabulary): sort the keys alone, so the elements the sort moves stay small.
            if members.count <= 16 {
                for member in members.sorted(by: { JSONWriter.utf8Precedes($0.key, $1.key) }) {
                    object.member(member.key, member.value, into: &out)
                }
            } else {
                for key in members.keys.sorted(by: JSONWriter.utf8Precedes) {
                    object.member(key, members[key] ?? .null, into: &out)
                }
            }
            object.finish(into: &out)
        }
    }

    private func newline(_ out: inout [UInt8], _ level: Int) {
        guard let indent else { return }
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<level { out.append(contentsOf: indent.utf8) }
    }

    /// True when `a`'s UTF-8 bytes sort before `b`'s: a total order, and a
    /// byte loop over contiguous storage rather than a generic sequence walk.
    public static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        let fast = a.utf8.withContiguousStorageIfAvailable { pa in
            b.utf8.withContiguousStorageIfAvailable { pb in UTF8Order.compare(pa, pb) < 0 }
        }
        if let result = fast ?? nil { return result }
        return a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// Shortest text that reads back as the same double, always with a
    /// fraction or exponent so it reads back as a double, not an integer.
    public static func format(_ d: Double) -> String {
        guard d.isFinite else { return "null" }
        let text = d.description
        if text.contains(".") || text.contains("e") { return text }
        return text + ".0"
    }

    /// Appends `s` as a quoted, escaped JSON string.
    public static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        if s.utf8.withContiguousStorageIfAvailable({ writeEscaped($0, into: &out) }) == nil {
            Array(s.utf8).withUnsafeBufferPointer { writeEscaped($0, into: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 string contents with the quote, the backslash and control
    /// characters escaped: runs that need nothing are copied whole.
    static func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var runStart = 0
        for i in 0..<utf8.count {
            let b = utf8[i]
            if b >= 0x20 && b != 0x22 && b != 0x5C { continue }
            if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
            runStart = i + 1
            out.append(0x5C)
            switch b {
            case 0x22: out.append(0x22)
            case 0x5C: out.append(0x5C)
            case 0x0A: out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "t"))
            case 0x08: out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(UInt8(ascii: "f"))
            default:
                out.append(UInt8(ascii: "u"))
                out.append(0x30)
                out.append(0x30)
                out.append(hexDigit(b >> 4))
                out.append(hexDigit(b & 0xF))
            }
        }
        if runStart < utf8.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }

    /// Appends the decimal digits of `value`, as `String(value)` spells them.
    static func writeInteger(_ value: Int, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 20 digits, most significant last
        var count = 0
        var rest = value.magnitude
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[count] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            for i in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[i]) }
        }
    }

    private static func hexDigit(_ v: UInt8) -> UInt8 { v < 10 ? 0x30 + v : 0x57 + v }
}
