/// Writes one JSON object member by member, exactly as `JSONWriter` writes
/// objects: the one place that decides the braces, the separators, the
/// quoting of keys, the colon and (pretty) the indentation. `JSONWriter`
/// writes every object through it, and so does every caller that writes an
/// object field by field or copies text encoded earlier into one (replies,
/// settings, the page state's pages, the vocabulary wrapper): their bytes are
/// the writer's by construction.
///
/// A member is a key and a value, a key and JSON text encoded earlier (copied,
/// or left as a piece of its own that is shared, not copied), or a run of
/// members encoded earlier. Keys must come in the writer's order (UTF-8 byte
/// order, strictly increasing), which every caller has by construction
/// (`JSONWriter` sorts, `BridgeReply` keeps its members sorted, the others
/// write fixed keys or runs from an index). Debug builds trap on a key out of
/// order, so every test checks it; a release reply pays nothing for it.
///
/// ```swift
/// var out: [UInt8] = []
/// var object = JSONObjectWriter(into: &out)
/// object.member("enabled", .bool(true), into: &out)
/// object.member("theme", .string("auto"), into: &out)
/// object.finish(into: &out)  // {"enabled":true,"theme":"auto"}
/// ```
public struct JSONObjectWriter {
    // Inlinable: a reply's three or four members are written on every request, in the caller's module.
    @usableFromInline let writer: JSONWriter
    @usableFromInline let indented: Bool
    @usableFromInline let level: Int
    /// Members written so far.
    public var count: Int { written }
    @usableFromInline var written = 0
    #if DEBUG
        @usableFromInline var previousKey: String?
    #endif
    @usableFromInline let checksOrder: Bool

    /// Starts an object (`{`) at the end of `out`.
    /// - Parameters:
    ///   - writer: the writer of member values and of the layout (compact or indented).
    ///   - level: the object's nesting level, for indentation.
    @inlinable
    public init(into out: inout [UInt8], writer: JSONWriter = JSONWriter(), level: Int = 0) {
        self.init(into: &out, writer: writer, level: level, checksOrder: true)
    }

    /// `JSONWriter`'s own objects: it has just sorted the keys.
    @inlinable
    init(into out: inout [UInt8], writer: JSONWriter, level: Int, checksOrder: Bool) {
        self.writer = writer
        self.indented = writer.indent != nil
        self.level = level
        self.checksOrder = checksOrder
        out.append(UInt8(ascii: "{"))
    }

    /// Writes what comes before a member's value: the separator, the line
    /// break (pretty), the quoted key and the colon. Returns where the member
    /// starts (its key's opening quote) in `out`.
    @inlinable @discardableResult
    public mutating func key(_ key: String, into out: inout [UInt8]) -> Int {
        #if DEBUG
            if checksOrder {
                if let previousKey {
                    precondition(JSONWriter.utf8Precedes(previousKey, key), "object keys out of the writer's order")
                }
                previousKey = key
            }
        #endif
        separate(&out)
        let start = out.count
        JSONWriter.writeString(key, into: &out)
        out.append(UInt8(ascii: ":"))
        if indented { out.append(UInt8(ascii: " ")) }
        return start
    }

    /// A member `key: value`. Returns its range in `out`.
    @inlinable @discardableResult
    public mutating func member(_ key: String, _ value: JSONValue, into out: inout [UInt8]) -> Range<Int> {
        let start = self.key(key, into: &out)
        writer.write(value, into: &out, level: level + 1)
        return start..<out.count
    }

    /// A member whose value is JSON text encoded earlier as the writer writes
    /// it (compact only), copied. Returns its range in `out`.
    @inlinable @discardableResult
    public mutating func member(_ key: String, encoded text: EncodedJSON, into out: inout [UInt8]) -> Range<Int> {
        precondition(!indented, "encoded text is compact")
        let start = self.key(key, into: &out)
        out.append(contentsOf: text.bytes)
        return start..<out.count
    }

    /// A member whose value is JSON text encoded earlier (compact), left as a
    /// piece of its own: `out` so far goes to `pieces`, then `text`'s buffer
    /// (shared, not copied), and `out` starts again empty.
    @inlinable
    public mutating func member(
        _ key: String, sharing text: EncodedJSON, into out: inout [UInt8], pieces: inout [[UInt8]]
    ) {
        precondition(!indented, "encoded text is compact")
        self.key(key, into: &out)
        pieces.append(out)
        pieces.append(text.bytes)
        out = []
        out.reserveCapacity(64)
    }

    /// `count` members encoded earlier as this writer writes them (compact),
    /// `"key":value` separated by commas, in order, each key after every key
    /// written before (the caller's text guarantees it: the members of an
    /// `EncodedJSON.members` index, in order). Copied.
    @inlinable
    public mutating func members(encoded text: ArraySlice<UInt8>, count: Int, into out: inout [UInt8]) {
        precondition(!indented, "encoded text is compact")
        guard count > 0 else { return }
        separate(&out)
        out.append(contentsOf: text)
        written += count - 1
        #if DEBUG
            previousKey = nil  // the run's keys are the caller's guarantee
        #endif
    }

    /// Ends the object (`}`).
    @inlinable
    public func finish(into out: inout [UInt8]) {
        if written > 0 && indented { newline(&out, level) }
        out.append(UInt8(ascii: "}"))
    }

    @inlinable
    mutating func separate(_ out: inout [UInt8]) {
        if written > 0 { out.append(UInt8(ascii: ",")) }
        written += 1
        if indented { newline(&out, level + 1) }
    }

    @usableFromInline
    func newline(_ out: inout [UInt8], _ level: Int) {
        guard let indent = writer.indent else { return }
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<level { out.append(contentsOf: indent.utf8) }
    }
}
