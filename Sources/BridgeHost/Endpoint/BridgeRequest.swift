import BridgeJSON
import BridgeProtocol

/// A request from the extension: a JSON object naming an `action` (or the
/// legacy `message`), with an optional `id` that the reply echoes.
///
/// Members are kept as a short list in arrival order rather than a
/// dictionary: a request has a handful of keys, and a port answers
/// thousands of requests a second.
///
/// **Memory.** A parsed tree costs far more than its text (`[0,0,…]` is 2
/// bytes an element as text and 24 as a `JSONValue`), so an array or object
/// member over `deferredBytes` of text is checked but kept as its text, and
/// read only when an action asks for it (`isDeferred` tells). Strings and
/// numbers are read at once: they are never larger read than written. So a
/// 64 MiB request of any shape peaks within 3× its size unless an action
/// asks for a huge array or object.
public struct BridgeRequest: Equatable, Sendable {
    /// Arrays and objects with more JSON text than this are read on demand.
    public static let deferredBytes = 64 << 10

    /// One member of the request object.
    public struct Member: Equatable, Sendable {
        private enum Storage: Equatable, Sendable {
            case value(JSONValue)
            case text([UInt8])
        }

        public var key: String
        private var storage: Storage

        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.storage = .value(value)
        }

        /// A member kept as its (checked) JSON text.
        init(_ key: String, text: [UInt8]) {
            self.key = key
            self.storage = .text(text)
        }

        /// The value; one kept as text is read now (each time it is asked for).
        public var value: JSONValue {
            switch storage {
            case .value(let value): return value
            case .text(let text): return (try? JSONParser.parse(text, maximumDepth: Int.max)) ?? .null
            }
        }

        /// True for an array or object over `deferredBytes` of text, not read yet.
        public var isDeferred: Bool {
            if case .text = storage { return true }
            return false
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
            let kind = try reader.peekKind()
            guard kind == .object else {
                try reader.skipValue()  // checked, never built: it is refused anyway
                try reader.finish()
                return .notAnObject(typeName: kind.typeName)
            }
            var members: [Member] = []
            members.reserveCapacity(4)
            if try reader.beginObject() {
                repeat {
                    let key = try reader.readKey()
                    let kind = try reader.peekKind()
                    if kind == .array || kind == .object {
                        let start = reader.mark
                        let range = try reader.skipValue()
                        if range.count > deferredBytes {
                            members.append(Member(key, text: Array(buffer[range])))
                            continue
                        }
                        reader.reset(to: start)
                    }
                    members.append(Member(key, try reader.readValue()))
                } while try reader.nextMember()
            }
            try reader.finish()
            return .request(BridgeRequest(members: members))
        }
    }

    /// True when `key` is an array or object too large to have been read yet:
    /// asking for it builds the whole tree (see "Memory" above).
    public func isDeferred(_ key: String) -> Bool {
        members.last { $0.key == key }?.isDeferred ?? false
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
