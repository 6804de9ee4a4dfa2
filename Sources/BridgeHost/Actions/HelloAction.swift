import BridgeJSON
import BridgeSystem

/// `hello`: the handshake. Protocol and host versions, the caller, the
/// actions, and the limits, so a background script knows what it may ask.
public struct HelloAction: BridgeAction {
    public let name = "hello"
    public init() {}

    public func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        .success([
            "protocolVersion": .int(BridgeVersion.protocolVersion),
            "hostVersion": .string(BridgeVersion.current),
            "caller": .string(context.caller.identity),
            "actions": .array(context.actionNames.sorted().map(JSONValue.string)),
            "limits": .object([
                "maxRequestBytes": .int(context.maxRequestBytes), "maxReplyBytes": .int(context.maxReplyBytes),
            ]),
        ])
    }
}
