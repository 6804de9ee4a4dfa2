import BridgeJSON
import SharedSuite

/// Routes requests to actions by name and echoes the request `id`.
public final class Router: RequestHandling {
    /// The actions, found by a linear search: a handful of names, and no
    /// dictionary of existentials to instantiate at start-up.
    public private(set) var actions: [BridgeAction]
    public var context: ActionContext

    public init(context: ActionContext, actions: [BridgeAction] = Router.builtInActions()) {
        self.context = context
        self.actions = []
        for action in actions where !self.actions.contains(where: { $0.name == action.name }) {
            self.actions.append(action)
        }
        self.context.actionNames = actionNames
    }

    /// The seed's actions and ours.
    public static func builtInActions() -> [BridgeAction] {
        [
            HelloAction(), GetSettingsAction(), GetContentAction(), SaveContentAction(), SetSettingsAction(),
            QueueCountAction(),
        ]
    }

    /// Adds or replaces an action.
    public func register(_ action: BridgeAction) {
        actions.removeAll { $0.name == action.name }
        actions.append(action)
        context.actionNames = actionNames
    }

    /// Sorted action names, as `hello` lists them.
    public var actionNames: [String] { actions.map(\.name).sorted() }

    public func handle(_ message: JSONValue) -> JSONValue {
        guard let body = message.objectValue else {
            return BridgeReply.error(.notAnObject, "the message must be a JSON object, not a \(message.typeName)").json
        }
        return route(BridgeRequest(body)).json
    }

    /// Answers one request object.
    public func route(_ request: BridgeRequest) -> BridgeReply {
        if let id = request.id, !Router.isValidID(id) {
            return .error(.invalidRequest, "id must be a string of at most 128 characters or a number")
        }
        if request.action == nil, let legacy = request.legacyMessage, legacy == LegacyEnabledStatus.message {
            return LegacyEnabledStatus.perform(in: context).echoing(request.id)
        }
        let name = request.action ?? "unknown"
        guard let action = actions.first(where: { $0.name == name }) else {
            var reply = BridgeReply.error(.unknownAction, "Unknown action: \(name)")
            reply.body["error"] = .string("Unknown action: \(name)")
            context.logger.info("unknown action \(name.prefix(64))")
            return reply.echoing(request.id)
        }
        let reply = action.perform(request, in: context)
        context.logger.debug(
            "\(name) -> \(reply.body["status"]?.stringValue ?? "?") \(reply.body["code"]?.stringValue ?? "")")
        return reply.echoing(request.id)
    }

    static func isValidID(_ id: JSONValue) -> Bool {
        switch id {
        case .string(let s): return s.count <= 128
        case .int, .double: return true
        default: return false
        }
    }
}
