/// One named action of a bridge: what the extension asks for with
/// `{"action": name, …}`.
///
/// An app's host registers its own actions beside the built-in ones:
///
/// ```swift
/// struct AppInfoAction: BridgeAction {
///     let name = "appInfo"
///     func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
///         .success(["name": "My App"])
///     }
/// }
/// let program = HostProgram(actions: BuiltInActions.all + [AppInfoAction()])
/// ```
///
/// The contract:
/// - **Input.** `request` is the whole request object. Read members with
///   `request.string(_:)` or `request[_:]`; every member is untrusted input
///   from a web page's reach. The `id` is echoed by the endpoint: do not set it.
/// - **What it may use.** Only `context`: the shared suite, the pending
///   queue, the secrets the app shared (`context.secrets`), who the caller is, a logger (stderr; never page content or
///   secrets), and the limits. No globals, and nothing written to stdout:
///   stdout carries frames.
/// - **Errors.** Never throw and never trap: answer
///   `BridgeReply.error(code, message)` with a code from `BridgeErrorCode`,
///   or `BridgeReply.failure(suiteError)` for a storage failure. An action
///   that answers an error must have changed nothing.
/// - **Size.** A reply over `ProtocolLimits.maxReplyBytes` (1 MiB, UTF-8
///   bytes, the browsers' limit) is replaced by the endpoint with a
///   `reply_too_large` error: page large results (a cursor in the request).
/// - **Time.** Actions run one at a time on the session's thread; a slow one
///   delays every later message on the port.
public protocol BridgeAction {
    /// The `action` value that selects it. Unique in a bridge: a later
    /// action with the same name replaces an earlier one.
    var name: String { get }

    /// True when a successful reply should start `pageState` pushes on
    /// this connection (the built-in `hello` does). Default false.
    var startsChangeNotifications: Bool { get }

    /// True when asking again gives the same result and changes nothing more
    /// than asking once (reads; writes of a whole value): a client may send
    /// the request again when its port dropped with the request in flight.
    /// `hello` lists these actions (`resendSafe`), so the extension's rule is
    /// the host's. Default false: an action that writes something each time it
    /// runs (an append) must not be sent twice.
    var resendSafe: Bool { get }

    /// The request member that also selects this action by its name, for messages
    /// that name themselves another way than `action`: a Safari extension's own
    /// `{type: "syncGet"}` or `{message: "getSettings"}`, which its
    /// `SafariWebExtensionHandler` switched on. A request without `action` whose
    /// `messageKey` member is this action's name goes to it. Default nil: only
    /// `action` selects it (the built-in actions are never reached another way).
    var messageKey: String? { get }

    /// Answers `request`; failures are error replies, never thrown.
    func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply
}

extension BridgeAction {
    public var startsChangeNotifications: Bool { false }
    public var resendSafe: Bool { false }
    public var messageKey: String? { nil }
}
