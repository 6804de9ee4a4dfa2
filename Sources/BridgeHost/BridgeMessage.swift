import BridgeJSON
import SharedSuite

/// A request from the extension: a JSON object naming an `action` (or the
/// legacy `message`), with an optional `id` that the reply echoes.
///
/// Members are kept as a short list in arrival order rather than a
/// dictionary: a request has a handful of keys, and a port answers
/// thousands of requests a second.
public struct BridgeRequest: Equatable, Sendable {
    /// One member of the request object.
    public struct Member: Equatable, Sendable {
        public var key: String
        public var value: JSONValue

        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// Every member, in the order they came; for a repeated key the last counts.
    /// (A struct, not a tuple: arrays of tuples are copied and destroyed
    /// through slower generic paths.)
    public private(set) var members: [Member]

    public init(_ body: [String: JSONValue]) {
        members = body.map { Member($0.key, $0.value) }
    }

    public init(members: [Member]) { self.members = members }

    /// What a frame held: a request object, or a value of another type.
    public enum Parsed: Equatable, Sendable {
        case request(BridgeRequest)
        case notAnObject(typeName: String)
    }

    /// Reads one frame body. Only the top-level object is read member by
    /// member; values are read as `JSONParser` reads them.
    public static func parse(_ bytes: [UInt8], maximumDepth: Int) throws(JSONError) -> Parsed {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONError) -> Parsed in
            var reader = JSONReader(buffer, maximumDepth: maximumDepth)
            guard try reader.peekKind() == .object else {
                let value = try reader.readValue()
                try reader.finish()
                return .notAnObject(typeName: value.typeName)
            }
            var members: [Member] = []
            members.reserveCapacity(4)
            if try reader.beginObject() {
                repeat {
                    let key = try reader.readKey()
                    members.append(Member(key, try reader.readValue()))
                } while try reader.nextMember()
            }
            try reader.finish()
            return .request(BridgeRequest(members: members))
        }
    }

    /// The member `key`; for a repeated key, the last.
    public subscript(key: String) -> JSONValue? {
        var i = members.count
        while i > 0 {
            i -= 1
            if members[i].key == key { return members[i].value }
        }
        return nil
    }

    /// Every member as a dictionary.
    public var body: [String: JSONValue] {
        var body: [String: JSONValue] = [:]
        for member in members { body[member.key] = member.value }
        return body
    }

    /// The action name, if `action` is a string.
    public var action: String? { self["action"]?.stringValue }
    /// The legacy message name (`request:enabled_status`), if any.
    public var legacyMessage: String? { self["message"]?.stringValue }
    /// The request id, echoed in the reply.
    public var id: JSONValue? { self["id"] }

    /// The string member `key`, or nil when missing or not a string.
    public func string(_ key: String) -> String? { self[key]?.stringValue }

    public static func == (a: BridgeRequest, b: BridgeRequest) -> Bool { a.body == b.body }
}

/// A reply to the extension: a JSON object.
///
/// Members are kept in the order the writer writes keys (UTF-8 bytes), so
/// the reply is written in one pass; a member is a value, or JSON text
/// encoded earlier (settings and rules, cached per suite version) that is
/// copied as it is.
public struct BridgeReply: Equatable, Sendable {
    private enum Member: Sendable {
        case value(JSONValue)
        case encoded(EncodedJSON)
    }

    private struct Entry: Sendable {
        var key: String
        var member: Member
    }

    /// In the writer's key order.
    private var members: [Entry] = []

    public init(_ body: [String: JSONValue] = [:]) {
        members.reserveCapacity(body.count + 4)  // status, id, an encoded member: no regrowth
        for (key, value) in body { self[key] = value }
    }

    /// The member `key`; setting nil removes it.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let i = members.firstIndex(where: { $0.key == key }) else { return nil }
            switch members[i].member {
            case .value(let value): return value
            case .encoded(let text): return text.value
            }
        }
        set {
            if let newValue {
                put(key, .value(newValue))
            } else {
                members.removeAll { $0.key == key }
            }
        }
    }

    /// Sets a member whose JSON text is already encoded.
    public mutating func set(_ key: String, encoded value: EncodedJSON) { put(key, .encoded(value)) }

    private mutating func put(_ key: String, _ member: Member) {
        var i = 0
        while i < members.count {
            if members[i].key == key {
                members[i].member = member
                return
            }
            if JSONWriter.utf8Precedes(key, members[i].key) { break }
            i += 1
        }
        if i == members.count {
            members.append(Entry(key: key, member: member))
        } else {
            members.insert(Entry(key: key, member: member), at: i)
        }
    }

    /// The reply as a JSON value (encoded members parsed back: for tests and
    /// the in-process `RequestHandling` path).
    public var json: JSONValue {
        var body: [String: JSONValue] = [:]
        for i in members.indices { body[members[i].key] = self[members[i].key] }
        return .object(body)
    }

    /// The reply's JSON text: what `JSONWriter.bytes(json)` writes, with
    /// encoded members copied rather than written again.
    public var bytes: [UInt8] { Array(pieces(leaving: 0).joined()) }

    /// The reply's JSON text in pieces that follow each other: `headerRoom`
    /// zero bytes first (for a frame header), then the text, where an encoded
    /// member of 16 KiB or more is a piece of its own (its buffer is shared,
    /// not copied) and everything else is written into the pieces around it.
    public func pieces(leaving headerRoom: Int) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var out: [UInt8] = []
        out.reserveCapacity(headerRoom + smallSize)
        for _ in 0..<headerRoom { out.append(0) }
        out.append(UInt8(ascii: "{"))
        let writer = JSONWriter()
        for entry in members {
            let key = entry.key
            if out.count > headerRoom + 1 || !pieces.isEmpty { out.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(key, into: &out)
            out.append(UInt8(ascii: ":"))
            switch entry.member {
            case .value(let value): writer.write(value, into: &out, level: 0)
            case .encoded(let text) where text.bytes.count >= 16_384:
                pieces.append(out)
                pieces.append(text.bytes)
                out = []
                out.reserveCapacity(64)
            case .encoded(let text): out.append(contentsOf: text.bytes)
            }
        }
        out.append(UInt8(ascii: "}"))
        pieces.append(out)
        return pieces
    }

    /// Room for everything but the large encoded members.
    private var smallSize: Int {
        var size = 2
        for entry in members {
            if case .encoded(let text) = entry.member, text.bytes.count < 16_384 { size += text.bytes.count }
            size += entry.key.utf8.count + 16
        }
        return size
    }

    public static func == (a: BridgeReply, b: BridgeReply) -> Bool { a.json == b.json }

    /// `{"status":"success", …fields}`.
    public static func success(_ fields: consuming [String: JSONValue] = [:]) -> BridgeReply {
        var reply = BridgeReply(fields)
        reply["status"] = "success"
        return reply
    }

    /// `{"status":"error","code":…,"message":…, …extra}`.
    public static func error(_ code: BridgeErrorCode, _ message: String, _ extra: [String: JSONValue] = [:])
        -> BridgeReply
    {
        var reply = BridgeReply(extra)
        reply["status"] = "error"
        reply["code"] = .string(code.rawValue)
        reply["message"] = .string(message)
        return reply
    }

    /// The reply for a suite failure, with the code the extension acts on.
    public static func error(_ failure: SuiteError) -> BridgeReply {
        switch failure {
        case .corrupt, .newerFormat: return .error(.suiteUnreadable, failure.description)
        case .contentTooLarge(let size, let limit):
            return .error(.contentTooLarge, failure.description, ["size": .int(size), "limit": .int(limit)])
        case .queueFull: return .error(.queueFull, failure.description)
        default: return .error(.storageError, failure.description)
        }
    }

    /// The same reply carrying `id` (when there is one).
    public consuming func echoing(_ id: JSONValue?) -> BridgeReply {
        guard let id else { return self }
        // consuming: the reply is usually unique here, so adding the id does not copy its members.
        self["id"] = id
        return self
    }
}
