import BridgeJSON
import SharedSuite

/// Routes requests to actions by name and echoes the request `id`.
public final class Router: RequestHandling {
    /// The actions, found by a linear search: a handful of names, and no
    /// dictionary of existentials to instantiate at start-up.
    // Closures, not key paths: a key path instantiates its metadata at run time,
    // a measurable part of a one-shot host's start-up.
    public private(set) var actions: [BridgeAction] { didSet { names = actions.map { $0.name } } }
    /// `actions`' names, in the same order (no witness call per lookup).
    private var names: [String] = []
    public var context: ActionContext

    public init(context: ActionContext, actions: [BridgeAction] = Router.builtInActions()) {
        self.context = context
        self.actions = []
        for action in actions where !self.actions.contains(where: { $0.name == action.name }) {
            self.actions.append(action)
        }
        names = self.actions.map { $0.name }  // didSet does not run in init
        self.context.actionNames = names
    }

    /// The seed's actions and ours.
    public static func builtInActions() -> [BridgeAction] {
        [
            HelloAction(), GetSettingsAction(), GetContentAction(), SaveContentAction(), SetSettingsAction(),
            QueueCountAction(), GetPageStateAction(),
        ]
    }

    /// Adds or replaces an action.
    public func register(_ action: BridgeAction) {
        actions.removeAll { $0.name == action.name }
        actions.append(action)
        context.actionNames = names
    }

    /// Sorted action names, as `hello` lists them.
    public var actionNames: [String] { names.sorted() }

    public func handle(_ message: JSONValue) -> JSONValue { reply(to: message).json }

    /// Answers one decoded message.
    public func reply(to message: JSONValue) -> BridgeReply {
        guard let body = message.objectValue else { return notAnObject(message.typeName) }
        return route(BridgeRequest(body))
    }

    /// Answers one frame read by `BridgeRequest.parse`.
    public func reply(to parsed: BridgeRequest.Parsed) -> BridgeReply {
        switch parsed {
        case .request(let request): return route(request)
        case .notAnObject(let typeName): return notAnObject(typeName)
        }
    }

    private func notAnObject(_ typeName: String) -> BridgeReply {
        BridgeReply.error(.notAnObject, "the message must be a JSON object, not a \(typeName)")
    }

    /// Answers one request object.
    public func route(_ request: BridgeRequest) -> BridgeReply {
        let id = request.id
        if let id, !Router.isValidID(id) {
            return .error(.invalidRequest, "id must be a string of at most 128 characters or a number")
        }
        let action = request.action
        if action == nil, let legacy = request.legacyMessage, legacy == LegacyEnabledStatus.message {
            return LegacyEnabledStatus.perform(in: context).echoing(id)
        }
        let name = action ?? "unknown"
        guard let index = names.firstIndex(of: name) else {
            var reply = BridgeReply.error(.unknownAction, "Unknown action: \(name)")
            reply["error"] = .string("Unknown action: \(name)")
            context.logger.info("unknown action \(name.prefix(64))")
            return reply.echoing(id)
        }
        let reply = actions[index].perform(request, in: context)
        context.logger.debug(
            "\(name) -> \(reply["status"]?.stringValue ?? "?") \(reply["code"]?.stringValue ?? "")")
        return reply.echoing(id)
    }

    static func isValidID(_ id: JSONValue) -> Bool {
        switch id {
        case .string(let s): return s.count <= 128
        case .int, .double: return true
        default: return false
        }
    }
}
