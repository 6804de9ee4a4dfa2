/// Text a page or a local file controls, made safe to show a person: in a
/// terminal, a log line or a JSON reply.
///
/// A terminal acts on control characters: ESC starts sequences that move the
/// cursor, set the window title or write the clipboard (OSC 52), and the bidi
/// controls reorder what is shown. Every such character is written as a JSON
/// escape, `\u001b`: readable, and still the same text when the output is
/// JSON (inside a string it decodes back to the character; outside strings
/// JSON output has none of them). The characters escaped:
///
/// * C0 (U+0000–U+001F), except the line break and tab when kept;
/// * DEL (U+007F) and C1 (U+0080–U+009F);
/// * the line and paragraph separators U+2028 and U+2029 (a line break to
///   many terminals and every editor: a name could add a line to a report);
/// * the bidi marks, embeddings, overrides and isolates U+061C, U+200E, U+200F,
///   U+202A–U+202E and U+2066–U+2069.
public enum DisplayText {
    /// Which line structure survives.
    public enum Breaks: Sendable {
        /// Escape line breaks and tabs too: the text stays one field of one line.
        case escaped
        /// Keep `\n` and `\t`: the caller's own line and column layout.
        case kept
    }

    /// `text` with every control character escaped, cut to at most `maxBytes`
    /// UTF-8 bytes with `…` when it is longer (never inside a character or
    /// an escape).
    public static func escaped(_ text: String, breaks: Breaks = .escaped, maxBytes: Int = .max) -> String {
        var text = text
        return text.withUTF8 { String(decoding: escaped(utf8: $0, breaks: breaks, maxBytes: maxBytes), as: UTF8.self) }
    }

    /// The UTF-8 bytes of valid text with every control character escaped
    /// (see `escaped(_:breaks:maxBytes:)`). Text with none is copied whole.
    public static func escaped(utf8 b: UnsafeBufferPointer<UInt8>, breaks: Breaks, maxBytes: Int = .max) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(min(b.count, maxBytes) + 16)
        var i = 0
        var runStart = 0
        while i < b.count {
            let lead = b[i]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            let scalar = scalarValue(b, at: i, length: length)
            let escape = isControl(scalar) && !(breaks == .kept && (scalar == 0x0A || scalar == 0x09))
            let unitBytes = escape ? 6 : length
            if out.count + (i - runStart) + unitBytes > maxBytes {
                if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: b[runStart..<i])) }
                out.append(contentsOf: "…".utf8)
                return out
            }
            if escape {
                if runStart < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: b[runStart..<i])) }
                out.append(contentsOf: [0x5C, UInt8(ascii: "u")])
                for shift in stride(from: 12, through: 0, by: -4) {
                    let digit = UInt8((scalar >> UInt32(shift)) & 0xF)
                    out.append(digit < 10 ? 0x30 + digit : 0x57 + digit)
                }
                runStart = i + length
            }
            i += length
        }
        if runStart < b.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: b[runStart...])) }
        return out
    }

    /// Whether a terminal could act on the scalar `value` (the list above, line
    /// breaks and tabs included).
    public static func isControl(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || (0x2028...0x202E).contains(value)
            || (0x2066...0x2069).contains(value) || value == 0x061C || value == 0x200E || value == 0x200F
    }

    private static func scalarValue(_ b: UnsafeBufferPointer<UInt8>, at i: Int, length: Int) -> UInt32 {
        guard i + length <= b.count else { return 0xFFFD }
        switch length {
        case 1: return UInt32(b[i])
        case 2: return UInt32(b[i] & 0x1F) << 6 | UInt32(b[i + 1] & 0x3F)
        case 3: return UInt32(b[i] & 0x0F) << 12 | UInt32(b[i + 1] & 0x3F) << 6 | UInt32(b[i + 2] & 0x3F)
        default:
            return UInt32(b[i] & 0x07) << 18 | UInt32(b[i + 1] & 0x3F) << 12 | UInt32(b[i + 2] & 0x3F) << 6
                | UInt32(b[i + 3] & 0x3F)
        }
    }
}

extension String {
    /// The longest prefix of at most `maxBytes` UTF-8 bytes that ends between
    /// two scalars: a byte budget that never cuts a character's encoding.
    public func prefix(utf8Bytes maxBytes: Int) -> String {
        let utf8 = self.utf8
        guard utf8.count > maxBytes else { return self }
        var end = utf8.index(utf8.startIndex, offsetBy: Swift.max(0, maxBytes))
        while end > utf8.startIndex, UTF8.isContinuation(utf8[end]) { end = utf8.index(before: end) }
        return String(decoding: utf8[utf8.startIndex..<end], as: UTF8.self)
    }
}
