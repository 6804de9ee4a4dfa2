import BridgeJSON
import BridgeProtocol

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
