/// The compact JSON text of one value, exactly as `JSONWriter.bytes` writes
/// it, kept so that a value sent again and again (settings, a vocabulary) is
/// encoded once and then copied.
public struct EncodedJSON: Equatable, Sendable {
    /// The UTF-8 JSON text.
    public let bytes: [UInt8]

    /// Encodes `value`.
    public init(_ value: JSONValue) { bytes = JSONWriter.bytes(value) }

    private init(writerOutput bytes: [UInt8]) { self.bytes = bytes }

    /// The value again (for tests and comparisons; the hot path never parses).
    public var value: JSONValue { (try? JSONParser.parse(bytes, maximumDepth: Int.max)) ?? .null }

    /// `{"key":value,…}` with keys in UTF-8 byte order, as the writer orders
    /// them. The keys must be distinct.
    public static func object(_ members: [(key: String, value: EncodedJSON)]) -> EncodedJSON {
        var sorted = members
        sorted.sort { JSONWriter.utf8Precedes($0.key, $1.key) }
        var out: [UInt8] = []
        out.reserveCapacity(members.reduce(2) { $0 + $1.key.utf8.count + 4 + $1.value.bytes.count })
        out.append(UInt8(ascii: "{"))
        for member in sorted {
            if out.count > 1 { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(member.key, into: &out)
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: member.value.bytes)
        }
        out.append(UInt8(ascii: "}"))
        return EncodedJSON(writerOutput: out)
    }

    /// The compact form of a stored object of strings, copied rather than
    /// parsed and written again: what `EncodedJSON(parsed value)` would give,
    /// byte for byte, or nil when copying could not guarantee that. Nil unless
    /// `text` is one JSON object whose values are all strings, whose keys are
    /// non-empty ASCII without escapes, in strictly increasing byte order, and
    /// whose strings use only the escapes the writer writes (`\"` `\\` `\n`
    /// `\r` `\t` `\b` `\f`) — which is how `JSONWriter` writes such an object,
    /// pretty or compact. White space between tokens is dropped. (Keys must be
    /// ASCII because a Swift dictionary merges keys that differ only in
    /// Unicode normalization, and a copy would keep both.)
    ///
    /// - Parameters:
    ///   - wrapper: when given, the result is `{"wrapper":{…}}`, written in the
    ///     same buffer (a large object is not copied twice).
    public static func compactStringObject(_ text: ArraySlice<UInt8>, wrappedAs wrapper: String? = nil)
        -> EncodedJSON?
    {
        var storage: [UInt8] = []
        return compactStringObject(text, wrappedAs: wrapper, storage: &storage)
    }

    /// `compactStringObject(_:wrappedAs:)` writing into `storage`'s capacity
    /// (taken, so the caller can prepare a large buffer).
    public static func compactStringObject(
        _ text: ArraySlice<UInt8>, wrappedAs wrapper: String?, storage: inout [UInt8]
    ) -> EncodedJSON? {
        var out: [UInt8] = []
        swap(&out, &storage)  // the only reference: appending does not copy
        out.removeAll(keepingCapacity: true)
        return text.withUnsafeBufferPointer { buffer -> EncodedJSON? in
            var reader = JSONReader(buffer, maximumDepth: 1)
            out.reserveCapacity(buffer.count + (wrapper?.utf8.count ?? 0) + 8)
            if let wrapper {
                out.append(UInt8(ascii: "{"))
                JSONWriter.writeString(wrapper, into: &out)
                out.append(UInt8(ascii: ":"))
            }
            // Copy whole runs of the input: compact input is one run.
            var run = 0..<0
            func take(_ range: Range<Int>) {
                if range.lowerBound == run.upperBound {
                    run = run.lowerBound..<range.upperBound
                    return
                }
                if !run.isEmpty { out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[run])) }
                run = range
            }
            do {
                guard try reader.peekKind() == .object else { return nil }
                take(reader.offset..<(reader.offset + 1))  // {
                if try reader.beginObject() {
                    var previous: Range<Int>? = nil
                    repeat {
                        let key = try reader.skipKey()
                        guard !key.isEmpty, reader.lastStringWasPlainASCII else { return nil }
                        if let previous, !precedes(buffer, previous, key) { return nil }
                        previous = key
                        take((key.lowerBound - 1)..<(key.upperBound + 1))  // "key"
                        take((reader.offset - 1)..<reader.offset)  // :
                        guard try reader.peekKind() == .string else { return nil }
                        let start = reader.offset
                        try reader.skipString()
                        if !reader.lastStringWasPlainASCII
                            && !writerEscapesOnly(buffer, (start + 1)..<(reader.offset - 1))
                        {
                            return nil
                        }
                        take(start..<reader.offset)  // "value"
                        reader.skipSpace()
                        if reader.offset < buffer.count { take(reader.offset..<(reader.offset + 1)) }  // , or }
                    } while try reader.nextMember()
                } else {
                    take((reader.offset - 1)..<reader.offset)  // }
                }
                try reader.finish()
            } catch {
                return nil
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[run]))
            if wrapper != nil { out.append(UInt8(ascii: "}")) }
            return EncodedJSON(writerOutput: out)
        }
    }

    /// Strict UTF-8 byte order of two key texts.
    private static func precedes(_ buffer: UnsafeBufferPointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        let n = Swift.min(a.count, b.count)
        var i = 0
        while i < n {
            let x = buffer[a.lowerBound + i]
            let y = buffer[b.lowerBound + i]
            if x != y { return x < y }
            i += 1
        }
        return a.count < b.count
    }

    /// True when every escape in the string text is one `JSONWriter.writeString` writes.
    private static func writerEscapesOnly(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        var i = range.lowerBound
        while i < range.upperBound {
            if buffer[i] == UInt8(ascii: "\\") {
                switch buffer[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"),
                    UInt8(ascii: "b"), UInt8(ascii: "f"):
                    i += 2
                    continue
                default:
                    return false
                }
            }
            i += 1
        }
        return true
    }
}
