import BridgeJSON
import BridgeProtocol
import BridgeSystem
import NativeMessaging
import SharedSuite

/// The one way through a bridge: a frame's bytes in, one reply frame out.
///
/// It parses the request, routes it to an action by name (or answers
/// `hello` and the seed's legacy message itself), maps every failure to a
/// documented error code, echoes the request `id`, and caps the reply at
/// `ProtocolLimits.maxReplyBytes`. The native-messaging session, the tests,
/// the fuzz targets and a Safari `beginRequest` adapter all go through it.
///
/// It also decides when there is something new to push
/// (`changeNotification()`); what a push says is `PageState`'s, when to look
/// is the session's business.
public final class BridgeEndpoint {
    /// One reply, ready to write.
    public struct Response {
        /// The frame, header included, in pieces that follow each other.
        public var frame: OutboundFrame
        /// True when the session should start watching for changes (a
        /// successful `hello`).
        public var startsChangeNotifications: Bool
    }

    /// An encoded frame: a 4-byte native-order length, then the JSON body,
    /// as consecutive pieces (a large cached member is its own piece).
    public struct OutboundFrame: Equatable {
        public var pieces: [[UInt8]]
        /// The body's length in bytes (without the header).
        public var bodyLength: Int

        /// The frame's bytes in one buffer (tests, fuzzing, the refusal frame):
        /// one allocation and a copy per piece, not a byte-by-byte walk.
        public var bytes: [UInt8] {
            var out: [UInt8] = []
            out.reserveCapacity(4 + bodyLength)
            for piece in pieces { out.append(contentsOf: piece) }
            return out
        }
        /// The body's bytes (tests).
        public var body: [UInt8] { Array(bytes.dropFirst(4)) }
    }

    /// What the actions use.
    public let context: ActionContext
    private let actions: [BridgeAction]
    private let names: [String]
    /// The members other than `action` that name an action (`BridgeAction.messageKey`), in the
    /// order the actions were given; each with the actions it selects.
    private let messageKeys: [(key: String, names: Set<String>)]
    /// The state last pushed (or noted when notifications started).
    private var lastPushed: PageState.Identity?

    /// - Parameters:
    ///   - context: what actions may use.
    ///   - actions: the bridge's actions (`BuiltInActions.all` plus the app's
    ///     own). A later action replaces an earlier one of the same name;
    ///     `hello` is always the endpoint's own.
    public init(context: ActionContext, actions: [BridgeAction]) {
        self.context = context
        var table: [BridgeAction] = []
        for action in actions where action.name != "hello" {
            table.removeAll { $0.name == action.name }
            table.append(action)
        }
        table.append(
            HelloAction(
                actionNames: BridgeEndpoint.actionNames(of: actions),
                actions: table))
        self.actions = table
        self.names = table.map { $0.name }
        var keys: [(key: String, names: Set<String>)] = []
        for action in table {
            guard let key = action.messageKey else { continue }
            if let index = keys.firstIndex(where: { $0.key == key }) {
                keys[index].names.insert(action.name)
            } else {
                keys.append((key, [action.name]))
            }
        }
        self.messageKeys = keys
    }

    /// The action names, sorted, as `hello` lists them.
    public var actionNames: [String] { names.sorted() }

    /// The names `hello` lists for a bridge of `actions`: each name once (a later action replaces
    /// an earlier one), `hello` always, sorted. `--actions` prints the same list.
    public static func actionNames(of actions: [BridgeAction]) -> [String] {
        Set(actions.map(\.name) + ["hello"]).sorted()
    }

    // MARK: Requests

    /// Answers one frame body. The body is emptied once parsed, so a 64 MiB
    /// message is not held twice while its action runs.
    public func respond(to body: inout [UInt8]) -> Response {
        let parsed: BridgeRequest.Parsed
        do {
            parsed = try BridgeRequest.parse(body, maximumDepth: ProtocolLimits.maxDepth)
            body = []
        } catch {
            context.logger.info("refused a \(body.count)-byte message: \(error)")
            body = []
            let reply: BridgeReply
            switch error {
            case .invalidUTF8: reply = .error(.invalidUTF8, "the message is not valid UTF-8: \(error)")
            case .tooDeep: reply = .error(.tooDeep, "\(error)", ["limit": .int(ProtocolLimits.maxDepth)])
            case .syntax, .notAsWritten: reply = .error(.invalidJSON, "\(error)")
            }
            return Response(frame: frame(reply), startsChangeNotifications: false)
        }
        switch parsed {
        case .notAnObject(let typeName):
            return Response(frame: frame(notAnObject(typeName)), startsChangeNotifications: false)
        case .request(let request):
            let (reply, subscribes) = route(request)
            return Response(frame: frame(reply), startsChangeNotifications: subscribes)
        }
    }

    /// The answer to a frame over the inbound limit, which was discarded unread.
    public func respondToOversized(length: Int, limit: Int) -> Response {
        let reply = BridgeReply.error(
            .messageTooLarge, "the message is \(length) bytes, over the limit of \(limit) bytes",
            ["size": .int(length), "limit": .int(limit)])
        return Response(frame: frame(reply), startsChangeNotifications: false)
    }

    /// Answers one decoded message in process, with the same routing, codes
    /// and size cap as a frame (a Safari handler's `beginRequest`).
    public func reply(to message: JSONValue) -> JSONValue {
        let reply: BridgeReply
        if let object = message.objectValue {
            reply = route(BridgeRequest(object)).reply
        } else {
            reply = notAnObject(message.typeName)
        }
        return capped(reply).reply.json
    }

    private func notAnObject(_ typeName: String) -> BridgeReply {
        .error(.notAnObject, "the message must be a JSON object, not a \(typeName)")
    }

    /// Routes one request object to its action and echoes its id.
    private func route(_ request: BridgeRequest) -> (reply: BridgeReply, subscribes: Bool) {
        let id: JSONValue? = request.isDeferred("id") ? .array([]) : request.id  // a huge id is refused unread
        if let id, !BridgeEndpoint.isValidID(id) {
            let limit = ProtocolLimits.maxIDBytes
            return (.error(.invalidRequest, "id must be a string of at most \(limit) UTF-8 bytes or a number"), false)
        }
        // A Safari extension's own message may carry an `action` member as data (`{message: "edit",
        // action: "delete"}`): a name its handler declared under its own key comes first.
        let action = messageName(of: request) ?? request.action
        if action == nil, let legacy = request.legacyMessage, legacy == LegacyEnabledStatus.message {
            return (LegacyEnabledStatus.perform(in: context).echoing(id), false)
        }
        let name = action ?? "unknown"
        guard let index = names.firstIndex(of: name) else {
            var reply = BridgeReply.error(.unknownAction, "Unknown action: \(DisplayText.escaped(name, maxBytes: 64))")
            reply["error"] = reply["message"]
            context.logger.info("unknown action \(DisplayText.escaped(name, maxBytes: 64))")
            return (reply.echoing(id), false)
        }
        let chosen = actions[index]
        let reply = chosen.perform(request, in: context)
        // Only an action that can start notifications pays for looking at its status.
        let subscribes = chosen.startsChangeNotifications && reply["status"]?.stringValue == "success"
        context.logger.debug("\(name) -> \(reply["status"]?.stringValue ?? "?") \(reply["code"]?.stringValue ?? "")")
        return (reply.echoing(id), subscribes)
    }

    /// The name under the first `messageKey` whose value is an action that declared that key
    /// (`{type: "syncGet"}` reaches only an action named `syncGet` with `messageKey` "type").
    private func messageName(of request: BridgeRequest) -> String? {
        for (key, names) in messageKeys {
            if let name = request.string(key), names.contains(name) { return name }
        }
        return nil
    }

    static func isValidID(_ id: JSONValue) -> Bool {
        switch id {
        case .string(let s): return s.utf8.count <= ProtocolLimits.maxIDBytes
        case .int, .double: return true
        default: return false
        }
    }

    // MARK: Replies and their size

    /// `reply` as a frame; one over the limit becomes `reply_too_large`.
    private func frame(_ reply: BridgeReply) -> OutboundFrame {
        var (_, pieces, length) = capped(reply)
        // The length fits 32 bits: it is at most maxReplyBytes.
        try? FrameEncoder.writeHeader(length: length, into: &pieces[0])
        return OutboundFrame(pieces: pieces, bodyLength: length)
    }

    /// The reply, or `reply_too_large` in its place, with its pieces (4 bytes
    /// of header room first) and body length.
    private func capped(_ reply: BridgeReply) -> (reply: BridgeReply, pieces: [[UInt8]], length: Int) {
        let pieces = reply.pieces(leaving: 4)
        let length = pieces.reduce(-4) { $0 + $1.count }
        let limit = context.maxReplyBytes
        if length <= limit { return (reply, pieces, length) }
        context.logger.warn("reply of \(length) bytes replaced by reply_too_large")
        var error = BridgeReply.error(
            .replyTooLarge, "the reply would be \(length) bytes, over the browsers' limit of \(limit) bytes",
            ["size": .int(length), "limit": .int(limit)])
        error = error.echoing(reply["id"])
        var errorPieces = error.pieces(leaving: 4)
        var errorLength = errorPieces.reduce(-4) { $0 + $1.count }
        if errorLength > limit {  // only with a limit set absurdly low: drop the id, then everything optional
            error = .error(.replyTooLarge, "reply too large")
            errorPieces = error.pieces(leaving: 4)
            errorLength = errorPieces.reduce(-4) { $0 + $1.count }
        }
        return (error, errorPieces, errorLength)
    }

    // MARK: Changes

    /// Notes the page state as it is now, so that only later changes are
    /// pushed. Call when notifications start (after `hello`).
    public func startChangeNotifications() {
        lastPushed = currentEvent()?.identity
    }

    /// The page-state push (`PageState.event`: page 0 of `getPageState` and
    /// the settings) when it differs from the state last pushed; nil when
    /// nothing the extension sees changed (another key, a rewrite with the
    /// same content, the vocabulary while switched off) or the suite cannot be
    /// read now. The one "same state?" check of the host.
    public func changeNotification() -> OutboundFrame? {
        guard let event = currentEvent(), event.identity != lastPushed else { return nil }
        lastPushed = event.identity
        context.logger.debug("pushing \(event.reply["event"]?.stringValue ?? "")")
        return frame(event.reply)
    }

    private func currentEvent() -> PageState.Event? {
        let snapshot: SuiteSnapshot
        do {
            snapshot = try context.suite.snapshot()
        } catch {
            context.logger.warn("watching the suite: \(error)")
            return nil
        }
        return context.pageState.event(of: snapshot, replyLimit: context.maxReplyBytes)
    }

    /// Work that can wait until a reply is sent (closing a replaced suite file).
    public func finishReply() { context.suite.releaseStaleFile() }
}

extension BridgeReply {
    /// The reply for a storage failure, with the code the extension acts on.
    public static func failure(_ failure: SuiteError) -> BridgeReply {
        switch failure {
        case .corrupt, .newerFormat: return .error(.suiteUnreadable, failure.description)
        case .contentTooLarge(let size, let limit):
            return .error(.contentTooLarge, failure.description, ["size": .int(size), "limit": .int(limit)])
        case .queueFull: return .error(.queueFull, failure.description)
        default: return .error(.storageError, failure.description)
        }
    }
}
