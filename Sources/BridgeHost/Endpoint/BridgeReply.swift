import BridgeJSON
import BridgeProtocol

/// A reply to the extension: a JSON object, or (`value(_:)`) any JSON value,
/// as a Safari `SafariWebExtensionHandler` may answer.
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
    /// A reply that is not an object (`value(_:)`): written as it is; it has no members.
    private var whole: JSONValue?

    public init(_ body: [String: JSONValue] = [:]) {
        members.reserveCapacity(body.count + 4)  // status, id, an encoded member: no regrowth
        for (key, value) in body { self[key] = value }
    }

    /// The member `key`; setting nil removes it.
    public subscript(key: String) -> JSONValue? {
        get {
            if let whole { return whole.objectValue?[key] }
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
        if let whole { return whole }
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
        if let whole {
            out += JSONWriter.bytes(whole)
            return [out]
        }
        // The one object writer (BridgeJSON): the reply is the writer's bytes by construction.
        var object = JSONObjectWriter(into: &out)
        for entry in members {
            switch entry.member {
            case .value(let value): object.member(entry.key, value, into: &out)
            case .encoded(let text) where text.bytes.count >= 16_384:
                object.member(entry.key, sharing: text, into: &out, pieces: &pieces)
            case .encoded(let text): object.member(entry.key, encoded: text, into: &out)
            }
        }
        object.finish(into: &out)
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

    /// A reply that is exactly `value`: what a Safari handler answered (an array of formats, a
    /// string, an object without `status`), for an extension whose code reads it as it is. An object
    /// becomes an ordinary reply (members, `id` echoed); anything else is sent as it is, without an `id`
    /// (an extension that sends `id`s reads object replies).
    public static func value(_ value: JSONValue) -> BridgeReply {
        if case .object(let members) = value { return BridgeReply(members) }
        var reply = BridgeReply()
        reply.whole = value
        return reply
    }

    /// The same reply carrying `id` (when there is one and the reply is an object).
    public consuming func echoing(_ id: JSONValue?) -> BridgeReply {
        guard let id, whole == nil else { return self }
        // consuming: the reply is usually unique here, so adding the id does not copy its members.
        self["id"] = id
        return self
    }
}
