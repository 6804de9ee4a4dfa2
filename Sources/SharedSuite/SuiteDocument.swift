import BridgeJSON
import BridgeSystem

/// Reads the suite document, `{"formatVersion": 1, "values": {…}}`, straight
/// from its bytes with `JSONReader`: no intermediate `JSONValue` tree.
///
/// * `decode` builds every value in one pass (the CLI, `Suite.decode`).
/// * `index` checks everything `decode` checks — syntax, UTF-8, types, tags —
///   but builds nothing: it records where each top-level value's text is, so
///   a snapshot decodes only the keys that are asked for (the host).
///
/// `SuiteValue(json:)` reads the same format from a parsed tree (the CLI's
/// `import` of arbitrary JSON); the suite-file fuzz target checks that the two
/// agree on every input.
enum SuiteDocument {
    /// Nesting allowed in a suite file (the document and `values` are two levels).
    static let maximumDepth = 512

    /// The format version this reader reads and the writer writes (`Suite.formatVersion` is this one).
    static let formatVersion = 1

    /// Where a top-level value's JSON text is in the file (the index's own type).
    typealias Slot = SuiteIndex.Slot
    /// A key of `values` as it is in the file (the index's own type).
    typealias Key = SuiteIndex.Key

    /// JSON that is not a suite value (bad JSON throws `JSONError`).
    enum Failure: Error {
        case value(String)
    }

    /// Every value of the document.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(SuiteError) -> [String: SuiteValue] {
        var values: [String: SuiteValue] = [:]
        try walk(bytes, path: path, reset: { values = [:] }) { reader, key in
            values[key.string(in: bytes)] = try read(&reader, build: true)
        }
        return values
    }

    /// Checks the whole document and returns where each value is.
    static func index(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(SuiteError) -> SuiteIndex {
        var found: [SuiteIndex.Entry] = []
        try walk(bytes, path: path, reset: { found = [] }) { reader, key in
            reader.skipSpace()
            let start = reader.offset
            var shape = StringMapShape()
            if try reader.peekKind() == .object {
                _ = try readObject(&reader, build: false, shape: &shape)
            } else {
                _ = try read(&reader, build: false)
                shape.reject()
            }
            let slot = Slot(range: start..<reader.offset, isCanonicalStringMap: shape.isCanonical)
            found.append(SuiteIndex.Entry(key: key, slot: slot))
        }
        return SuiteIndex(found, in: bytes)
    }

    /// One value from its text, found by `index` (and so already checked).
    static func value(in bytes: UnsafeBufferPointer<UInt8>, at range: Range<Int>) -> SuiteValue? {
        // (The index checked this text; decoding it cannot fail.)
        var reader = JSONReader(UnsafeBufferPointer(rebasing: bytes[range]), maximumDepth: maximumDepth - 2)
        return try? read(&reader, build: true)
    }

    /// Walks the document, calling `member` for each member of `values` with
    /// the reader at its value, once `formatVersion` allows reading them.
    /// `reset` forgets what `member` collected (a repeated `values` key: the last one wins).
    private static func walk(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, reset: () -> Void,
        member: (inout JSONReader, Key) throws -> Void
    ) throws(SuiteError) {
        if bytes.isEmpty { throw .corrupt(path: path, reason: "the file is empty (truncated?)") }
        var reader = JSONReader(bytes, maximumDepth: maximumDepth)
        var version: JSONValue?
        var pending: JSONReader.Mark?  // `values` came before `formatVersion`: read it once the version is known
        var refusal: String?  // what was wrong in `values`, reported once the version is known to be ours
        do {
            let kind = try reader.peekKind()
            guard kind == .object else {
                // Let the grammar name the problem when the text is not JSON at all.
                _ = try reader.skipValue()
                try reader.finish()
                throw Failure.value("the top level is a \(kind.typeName), expected an object")
            }
            if try reader.beginObject() {
                repeat {
                    let key = try reader.readKey()
                    switch key {
                    case "formatVersion":
                        if try reader.peekKind() == .number {
                            version = try reader.readNumber()
                        } else {
                            _ = try reader.skipValue()
                            version = .null
                        }
                    case "values":
                        reset()
                        pending = nil
                        refusal = nil
                        reader.skipSpace()
                        let start = reader.mark
                        if let number = version?.intValue, number >= 1, number <= formatVersion {
                            do {
                                try readValues(&reader, member: member)
                            } catch Failure.value(let reason) {
                                // A later formatVersion may still make this a newer file: finish the walk first.
                                refusal = reason
                                reader.reset(to: start)
                                _ = try reader.skipValue()
                            }
                        } else {
                            pending = start
                            _ = try reader.skipValue()
                        }
                    default:
                        _ = try reader.skipValue()
                    }
                } while try reader.nextMember()
            }
            try reader.finish()
        } catch {
            throw failure(error, path: path)
        }
        guard let version else { throw .corrupt(path: path, reason: "formatVersion is missing") }
        guard let number = version.intValue, number >= 1 else {
            throw .corrupt(path: path, reason: "formatVersion is not a positive integer")
        }
        if number > formatVersion {
            throw .newerFormat(path: path, version: number, supported: formatVersion)
        }
        if let refusal { throw .corrupt(path: path, reason: refusal) }
        if let pending {
            // The same bytes from the same place, so the recorded ranges are offsets into the file.
            var later = JSONReader(bytes, maximumDepth: maximumDepth)
            later.reset(to: pending)
            do {
                try readValues(&later, member: member)
            } catch {
                throw failure(error, path: path)
            }
        }
    }

    private static func failure(_ error: any Error, path: String) -> SuiteError {
        switch error {
        case let error as JSONError: return .corrupt(path: path, reason: "not JSON (\(error))")
        case Failure.value(let reason): return .corrupt(path: path, reason: reason)
        default: return .corrupt(path: path, reason: "\(error)")
        }
    }

    private static func readValues(_ reader: inout JSONReader, member: (inout JSONReader, Key) throws -> Void) throws {
        let kind = try reader.peekKind()
        guard kind == .object else { throw Failure.value("values is a \(kind.typeName), expected an object") }
        guard try reader.beginObject() else { return }
        repeat {
            // The key's place, not a string: the index needs no string per key.
            let key = Key(range: try reader.skipKey(), plainASCII: reader.lastStringWasPlainASCII)
            do {
                try member(&reader, key)
            } catch Failure.value(let reason) {
                throw Failure.value("wrong type at \(key.string(in: reader.bytes)): \(reason)")
            }
        } while try reader.nextMember()
    }

    /// Reads one suite value; with `build` false it checks the value and returns nil.
    static func read(_ reader: inout JSONReader, build: Bool) throws -> SuiteValue? {
        switch try reader.peekKind() {
        case .null:
            throw Failure.value("null is not a suite value (delete the key instead)")
        case .bool:
            let b = try reader.readBool()
            return build ? .bool(b) : nil
        case .number:
            guard build else {
                try reader.skipNumber()
                return nil
            }
            switch try reader.readNumber() {
            case .int(let i): return .int(i)
            case .double(let d): return .double(d)
            default: return nil
            }
        case .string:
            guard build else {
                try reader.skipString()
                return nil
            }
            return .string(try reader.readString())
        case .array:
            var elements: [SuiteValue] = []
            if try reader.beginArray() {
                repeat {
                    if let element = try read(&reader, build: build) { elements.append(element) }
                } while try reader.nextElement()
            }
            return build ? .array(elements) : nil
        case .object:
            var shape = StringMapShape()
            return try readObject(&reader, build: build, shape: &shape)
        }
    }

    /// An object: a dictionary, or a tag (`$data`, `$date`, `$dict`) when its
    /// only key starts with `$` (a repeated key counts once: the last wins).
    /// When checking (`build` false), it also follows the object's shape: a
    /// top-level object of strings stored canonically is copied, not decoded.
    private static func readObject(_ reader: inout JSONReader, build: Bool, shape: inout StringMapShape) throws
        -> SuiteValue?
    {
        if build { shape.reject() }
        var members: [String: SuiteValue] = [:]
        var candidate: (key: String, range: Range<Int>)?
        var first = true
        if try reader.beginObject() {
            repeat {
                reader.skipSpace()
                let at = reader.offset + 1
                let mayBeDollar =
                    at < reader.bytes.count
                    && (reader.bytes[at] == UInt8(ascii: "$") || reader.bytes[at] == UInt8(ascii: "\\"))
                var key: String?
                if build || candidate != nil || (first && mayBeDollar) {
                    key = try reader.readKey()
                    shape.reject()  // escaped, or perhaps a tag: not copied as it is
                }
                if let key, first || candidate?.key == key, key.hasPrefix("$") {
                    // Maybe a tag: keep its text until we know whether another key follows.
                    candidate = (key, try reader.skipValue())
                } else {
                    if let tag = candidate {  // another key: the first member was an ordinary value
                        let value = try readMember(tag.key, at: tag.range, of: reader, build: build)
                        if let value { members[tag.key] = value }
                        candidate = nil
                    }
                    if let key {
                        do {
                            let value = try read(&reader, build: build)
                            if let value { members[key] = value }
                        } catch Failure.value(let reason) {
                            throw Failure.value("\(key): \(reason)")
                        }
                    } else {
                        let keyRange = try reader.skipKey()
                        if shape.isCanonical {
                            shape.key(keyRange, plainASCII: reader.lastStringWasPlainASCII, in: reader.bytes)
                            if try reader.peekKind() == .string {
                                let start = reader.offset
                                try reader.skipString()
                                shape.stringValue(
                                    start..<reader.offset, plainASCII: reader.lastStringWasPlainASCII, in: reader.bytes)
                                first = false
                                continue
                            }
                            shape.reject()
                        }
                        do {
                            _ = try read(&reader, build: false)
                        } catch Failure.value(let reason) {
                            var name = JSONReader(
                                UnsafeBufferPointer(rebasing: reader.bytes[(keyRange.lowerBound - 1)...]))
                            throw Failure.value("\((try? name.readString()) ?? "?"): \(reason)")
                        }
                    }
                }
                first = false
            } while try reader.nextMember()
        }
        if let tag = candidate { return try tagged(tag.key, at: tag.range, of: reader, build: build) }
        return build ? .dictionary(members) : nil
    }

    /// A reader over `range` of the same bytes, with the nesting `outer` has left.
    private static func reader(at range: Range<Int>, of outer: JSONReader) -> JSONReader {
        JSONReader(UnsafeBufferPointer(rebasing: outer.bytes[range]), maximumDepth: outer.remainingDepth)
    }

    private static func readMember(_ key: String, at range: Range<Int>, of outer: JSONReader, build: Bool) throws
        -> SuiteValue?
    {
        var inner = reader(at: range, of: outer)
        do {
            return try read(&inner, build: build)
        } catch Failure.value(let reason) {
            throw Failure.value("\(key): \(reason)")
        }
    }

    private static func tagged(_ key: String, at range: Range<Int>, of outer: JSONReader, build: Bool) throws
        -> SuiteValue?
    {
        var inner = reader(at: range, of: outer)
        switch key {
        case "$data":
            guard try inner.peekKind() == .string, let bytes = Base64.decode(try inner.readString()) else {
                throw Failure.value("$data must hold a base64 string")
            }
            return build ? .data(bytes) : nil
        case "$date":
            let bad = Failure.value("$date must hold an ISO 8601 date such as 2026-11-29T18:57:02Z")
            guard try inner.peekKind() == .string else { throw bad }
            let start = inner.offset
            try inner.skipString()
            let date: WallTime?
            if inner.lastStringWasPlainASCII {  // the text is the value: parse it where it is
                date = WallTime(
                    iso8601UTF8: UnsafeBufferPointer(rebasing: inner.bytes[(start + 1)..<(inner.offset - 1)]))
            } else {
                var again = reader(at: range, of: outer)
                date = WallTime(iso8601: try again.readString())
            }
            guard let date else { throw bad }
            return build ? .date(date) : nil
        case "$dict":
            guard try inner.peekKind() == .object else { throw Failure.value("$dict must hold an object") }
            var members: [String: SuiteValue] = [:]
            if try inner.beginObject() {
                repeat {
                    let memberKey = try inner.readKey()
                    do {
                        if let value = try read(&inner, build: build) { members[memberKey] = value }
                    } catch Failure.value(let reason) {
                        throw Failure.value("\(memberKey): \(reason)")
                    }
                } while try inner.nextMember()
            }
            return build ? .dictionary(members) : nil
        default:
            throw Failure.value("unknown tag \(key) (known: $data, $date, $dict)")
        }
    }
}
