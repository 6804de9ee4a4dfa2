import BridgeJSON
import BridgeProtocol

/// `hello`: the handshake. Protocol and host versions (the app's name and version; the
/// ExtensionBridge version it is built on as `bridgeVersion`), the caller, the group,
/// the actions, and the limits, so a background script knows what it may
/// ask, and which actions it may send again after a port dropped with them in
/// flight (`resendSafe`: each action declares it). A successful `hello` starts
/// the page-state pushes on its port. The endpoint builds it with the
/// bridge's action names.
struct HelloAction: BridgeAction {
    let name = "hello"
    let actionNames: [String]
    /// The bridge's actions: which are resend-safe is asked when `hello` is
    /// answered, not on every one-shot host's start-up.
    let actions: [BridgeAction]
    var startsChangeNotifications: Bool { true }
    var resendSafe: Bool { true }

    /// The names of the actions that declare themselves safe to send again
    /// (`BridgeAction.resendSafe`), `hello` always, sorted: `hello`'s `resendSafe`.
    static func resendSafeNames(of actions: [BridgeAction]) -> [String] {
        // Closures, not key paths: key paths instantiate metadata on a one-shot host's start-up.
        Set(actions.filter { $0.resendSafe }.map { $0.name } + ["hello"]).sorted()
    }

    func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        .success([
            "protocolVersion": .int(BridgeVersion.protocolVersion),
            "hostVersion": .string(context.app.version),
            "name": .string(context.app.name),
            "bridgeVersion": .string(BridgeVersion.current),
            "caller": .string(context.caller.identity),
            "group": .string(context.groupID),
            "actions": .array(actionNames.map(JSONValue.string)),
            "resendSafe": .array(HelloAction.resendSafeNames(of: actions).map(JSONValue.string)),
            "limits": .object([
                "maxRequestBytes": .int(context.maxRequestBytes), "maxReplyBytes": .int(context.maxReplyBytes),
            ]),
        ])
    }
}
