/// The compact JSON text of one value, exactly as `JSONWriter.bytes` writes
/// it, kept so that a value sent again and again (settings, a vocabulary) is
/// encoded once and then copied. Made only by the writer: `JSONWriter`, a
/// `JSONObjectWriter` (`object(_:)`), or the checked copy of text the writer
/// wrote (`compact(checked:…)`).
public struct EncodedJSON: Equatable, Sendable {
    /// The UTF-8 JSON text.
    public let bytes: [UInt8]

    /// Encodes `value`.
    public init(_ value: JSONValue) { bytes = JSONWriter.bytes(value) }

    fileprivate init(writerOutput bytes: [UInt8]) { self.bytes = bytes }

    /// One object written member by member with a `JSONObjectWriter` (its
    /// braces, separators and keys are the writer's own, so the text is what
    /// `JSONWriter.bytes` writes for the same members). `write` adds the
    /// members to the object and the buffer it is given.
    public static func object(
        reservingCapacity capacity: Int = 64, _ write: (inout JSONObjectWriter, inout [UInt8]) -> Void
    ) -> EncodedJSON {
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        var object = JSONObjectWriter(into: &out)
        write(&object, &out)
        object.finish(into: &out)
        return EncodedJSON(writerOutput: out)
    }

    /// The value again (for tests and comparisons; the hot path never parses).
    public var value: JSONValue { (try? JSONParser.parse(bytes, maximumDepth: Int.max)) ?? .null }

    /// The compact form of a stored object of strings, checked and copied
    /// rather than parsed and written again (the standalone form of what the
    /// suite index and `compact(checked:)` do for a stored vocabulary): what `EncodedJSON(parsed value)` would give,
    /// byte for byte, or nil when copying could not guarantee that. Nil unless
    /// `text` is one JSON object that `StringMapShape` finds canonical: values
    /// all strings, keys non-empty ASCII without escapes in strictly increasing
    /// byte order, strings with only the escapes the writer writes (`\"` `\\`
    /// `\n` `\r` `\t` `\b` `\f`) — which is how `JSONWriter` writes such an
    /// object, pretty or compact. White space between tokens is dropped. (Keys
    /// must be ASCII because a Swift dictionary merges keys that differ only in
    /// Unicode normalization, and a copy would keep both.)
    ///
    /// - Parameter wrapper: when given, the result is `{"wrapper":{…}}`.
    public static func compactStringObject(_ text: ArraySlice<UInt8>, wrappedAs wrapper: String? = nil)
        -> EncodedJSON?
    {
        let canonical = text.withUnsafeBufferPointer { buffer -> Bool in
            var reader = JSONReader(buffer, maximumDepth: 1)
            var shape = StringMapShape()
            do {
                guard try reader.peekKind() == .object else { return false }
                if try reader.beginObject() {
                    repeat {
                        shape.key(try reader.skipKey(), plainASCII: reader.lastStringWasPlainASCII, in: buffer)
                        guard try reader.peekKind() == .string else { return false }
                        let start = reader.offset
                        try reader.skipString()
                        shape.stringValue(start..<reader.offset, plainASCII: reader.lastStringWasPlainASCII, in: buffer)
                        if !shape.isCanonical { return false }
                    } while try reader.nextMember()
                }
                try reader.finish()
            } catch {
                return false
            }
            return shape.isCanonical
        }
        guard canonical else { return nil }
        var storage: [UInt8] = []
        return compact(checked: text, wrappedAs: wrapper, storage: &storage)
    }

    /// The compact form of JSON text that `JSONReader` has already accepted
    /// whole, with white space outside strings dropped and everything else
    /// copied: for an object `StringMapShape` found canonical, exactly what
    /// the writer writes. Runs of bytes are copied whole, strings are crossed
    /// eight bytes at a time.
    ///
    /// - Parameters:
    ///   - wrapper: when given, the result is `{"wrapper":…}`, in the same
    ///     buffer (a large object is not copied twice).
    ///   - storage: an empty array whose capacity the result takes (the caller
    ///     can prepare a large one).
    public static func compact(checked text: ArraySlice<UInt8>, wrappedAs wrapper: String?, storage: inout [UInt8])
        -> EncodedJSON
    {
        compact(checked: text, wrappedAs: wrapper, storage: &storage, indexing: false).json
    }

    /// `compact(checked:wrappedAs:storage:)` with the members of the copied
    /// object (the wrapped one, with a wrapper) indexed as they are copied;
    /// nil when the text is not an object.
    public static func compactIndexing(
        checked text: ArraySlice<UInt8>, wrappedAs wrapper: String?, storage: inout [UInt8]
    ) -> IndexedJSON? {
        let result = compact(checked: text, wrappedAs: wrapper, storage: &storage, indexing: true)
        return result.members.map { IndexedJSON(json: result.json, members: $0) }
    }

    private static func compact(
        checked text: ArraySlice<UInt8>, wrappedAs wrapper: String?, storage: inout [UInt8], indexing: Bool
    ) -> (json: EncodedJSON, members: [Range<Int>]?) {
        var out: [UInt8] = []
        swap(&out, &storage)  // the only reference: appending does not copy
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(text.count + (wrapper?.utf8.count ?? 0) + 8)
        var object: JSONObjectWriter?
        if let wrapper {
            object = JSONObjectWriter(into: &out)
            object?.key(wrapper, into: &out)
        }
        var members: [Range<Int>]?
        text.withUnsafeBufferPointer { buffer in
            guard let p = buffer.baseAddress else { return }
            if indexing {
                members = copyIndexing(p, buffer.count, into: &out)
            } else {
                copy(p, buffer.count, into: &out)
            }
        }
        object?.finish(into: &out)
        return (EncodedJSON(writerOutput: out), members)
    }

    /// Appends the checked text without white space outside strings.
    private static func copy(_ p: UnsafePointer<UInt8>, _ n: Int, into out: inout [UInt8]) {
        var i = 0
        var run = 0
        while i < n {
            let b = p[i]
            if b == UInt8(ascii: "\"") {
                i = endOfString(p, n, after: i + 1)
            } else if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
                if run < i { out.append(contentsOf: UnsafeBufferPointer(start: p + run, count: i - run)) }
                i += 1
                while i < n && (p[i] == 0x20 || p[i] == 0x0A || p[i] == 0x0D || p[i] == 0x09) { i += 1 }
                run = i
            } else {
                i += 1
            }
        }
        if run < n { out.append(contentsOf: UnsafeBufferPointer(start: p + run, count: n - run)) }
    }

    /// `copy`, noting where each member of the outermost object lands in
    /// `out` as it is copied; nil when the text is not an object. (A second
    /// loop rather than a flag in one: a reply that only sends its rules pays
    /// nothing for the index.)
    private static func copyIndexing(_ p: UnsafePointer<UInt8>, _ n: Int, into out: inout [UInt8]) -> [Range<Int>]? {
        var members: [Range<Int>] = []
        var isObject = false
        var i = 0
        var run = 0
        var depth = 0
        // Where the member being copied starts in `out` (byte i lands at out.count + i - run:
        // runs are appended lazily).
        var memberStart = -1
        while i < n {
            let b = p[i]
            if b == UInt8(ascii: "\"") {
                if depth == 1 && memberStart < 0 { memberStart = out.count + (i - run) }
                i = endOfString(p, n, after: i + 1)
            } else if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 {
                if run < i { out.append(contentsOf: UnsafeBufferPointer(start: p + run, count: i - run)) }
                i += 1
                while i < n && (p[i] == 0x20 || p[i] == 0x0A || p[i] == 0x0D || p[i] == 0x09) { i += 1 }
                run = i
            } else {
                if b == UInt8(ascii: "{") || b == UInt8(ascii: "[") {
                    if depth == 0 { isObject = b == UInt8(ascii: "{") }
                    depth += 1
                } else if b == UInt8(ascii: "}") || b == UInt8(ascii: "]") {
                    if depth == 1 && memberStart >= 0 { members.append(memberStart..<(out.count + i - run)) }
                    depth -= 1
                } else if b == UInt8(ascii: ",") && depth == 1 {
                    members.append(memberStart..<(out.count + i - run))
                    memberStart = -1
                }
                i += 1
            }
        }
        if run < n { out.append(contentsOf: UnsafeBufferPointer(start: p + run, count: n - run)) }
        return isObject ? members : nil
    }

    /// Just past the closing quote of a checked string whose text starts at `i`.
    private static func endOfString(_ p: UnsafePointer<UInt8>, _ n: Int, after start: Int) -> Int {
        var i = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        while true {
            while i + 8 <= n {
                let w = UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
                let quote = w ^ (ones &* 0x22)
                let slash = w ^ (ones &* 0x5C)
                let found = (((quote &- ones) & ~quote) | ((slash &- ones) & ~slash)) & (ones &* 0x80)
                if found != 0 {
                    i += found.trailingZeroBitCount >> 3
                    break
                }
                i += 8
            }
            guard i < n else { return n }
            if p[i] == UInt8(ascii: "\"") { return i + 1 }
            i += p[i] == UInt8(ascii: "\\") ? 2 : 1
        }
    }
}

/// An encoded object with the place of each of its members (or, for a
/// wrapper `{"wrapper":{…}}`, of the wrapped object's members): `"key":value`
/// ranges of `json.bytes`, in order, noted while the object was written or
/// copied, so that it can be cut between members without reading it again.
public struct IndexedJSON: Equatable, Sendable {
    public let json: EncodedJSON
    public let members: [Range<Int>]

    fileprivate init(json: EncodedJSON, members: [Range<Int>]) {
        self.json = json
        self.members = members
    }

    /// `EncodedJSON.object`, where `write` returns the ranges of the members to index.
    public static func object(
        reservingCapacity capacity: Int = 64, _ write: (inout JSONObjectWriter, inout [UInt8]) -> [Range<Int>]
    ) -> IndexedJSON {
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        var object = JSONObjectWriter(into: &out)
        let members = write(&object, &out)
        object.finish(into: &out)
        return IndexedJSON(json: EncodedJSON(writerOutput: out), members: members)
    }
}

/// Follows the members of one JSON object as a reader crosses them, and says
/// whether copying the object's text (without white space) gives exactly what
/// `JSONWriter` writes for its parsed value: values all strings; keys
/// non-empty ASCII without escapes, in strictly increasing byte order (so
/// also no repeated key); strings with only the escapes the writer writes.
public struct StringMapShape: Sendable {
    /// False as soon as one member breaks the rules.
    public private(set) var isCanonical = true
    private var previousKey: Range<Int>?

    public init() {}

    /// A key's text (inside its quotes), as `JSONReader.skipKey` returns it.
    public mutating func key(_ range: Range<Int>, plainASCII: Bool, in buffer: UnsafeBufferPointer<UInt8>) {
        guard isCanonical else { return }
        if range.isEmpty || !plainASCII { isCanonical = false }
        if let previousKey, !UTF8Order.precedes(previousKey, range, in: buffer) { isCanonical = false }
        previousKey = range
    }

    /// A string value's text, quotes included.
    public mutating func stringValue(_ range: Range<Int>, plainASCII: Bool, in buffer: UnsafeBufferPointer<UInt8>) {
        guard isCanonical, !plainASCII else { return }
        if !StringMapShape.writerEscapesOnly(buffer, (range.lowerBound + 1)..<(range.upperBound - 1)) {
            isCanonical = false
        }
    }

    /// A key that had to be read as a string (escaped, or a possible tag), or
    /// a value that is not a string.
    public mutating func reject() { isCanonical = false }

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
