import BridgeJSON
import SharedSuite

/// A request from the extension: a JSON object naming an `action` (or the
/// legacy `message`), with an optional `id` that the reply echoes.
public struct BridgeRequest: Equatable, Sendable {
    /// Every member of the request object.
    public var body: [String: JSONValue]

    public init(_ body: [String: JSONValue]) { self.body = body }

    /// The action name, if `action` is a string.
    public var action: String? { body["action"]?.stringValue }
    /// The legacy message name (`request:enabled_status`), if any.
    public var legacyMessage: String? { body["message"]?.stringValue }
    /// The request id, echoed in the reply.
    public var id: JSONValue? { body["id"] }

    /// The string member `key`, or nil when missing or not a string.
    public func string(_ key: String) -> String? { body[key]?.stringValue }
}

/// A reply to the extension: a JSON object.
public struct BridgeReply: Equatable, Sendable {
    public var body: [String: JSONValue]

    public init(_ body: [String: JSONValue]) { self.body = body }

    /// `{"status":"success", …fields}`.
    public static func success(_ fields: consuming [String: JSONValue] = [:]) -> BridgeReply {
        var body = fields
        body.reserveCapacity(body.count + 2)  // status and id: no regrowth
        body["status"] = "success"
        return BridgeReply(body)
    }

    /// `{"status":"error","code":…,"message":…, …extra}`.
    public static func error(_ code: BridgeErrorCode, _ message: String, _ extra: [String: JSONValue] = [:])
        -> BridgeReply
    {
        var body = extra
        body.reserveCapacity(body.count + 4)
        body["status"] = "error"
        body["code"] = .string(code.rawValue)
        body["message"] = .string(message)
        return BridgeReply(body)
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
        body["id"] = id
        return self
    }

    /// The reply as a JSON value.
    public var json: JSONValue { .object(body) }
}
