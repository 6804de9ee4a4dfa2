import BridgeProtocol
import SharedSuite

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

    /// True when a successful reply should start `settingsChanged` pushes on
    /// this connection (the built-in `hello` does). Default false.
    var startsChangeNotifications: Bool { get }

    /// True when asking again gives the same result and changes nothing more
    /// than asking once (reads; writes of a whole value): a client may send
    /// the request again when its port dropped with the request in flight.
    /// `hello` lists these actions (`resendSafe`), so the extension's rule is
    /// the host's. Default false: an action that writes something each time it
    /// runs (an append) must not be sent twice.
    var resendSafe: Bool { get }

    /// Answers `request`; failures are error replies, never thrown.
    func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply
}

extension BridgeAction {
    public var startsChangeNotifications: Bool { false }
    public var resendSafe: Bool { false }
}

/// What an action may use: passed in, never global.
public struct ActionContext {
    /// The shared suite (the App Group's `UserDefaults`).
    public var suite: SuiteStore
    /// The queue of items saved for the app (`queue drain` hands them over).
    public var queue: PendingQueueing
    /// Who started the host, as the browser said.
    public var caller: Caller
    /// Log lines to stderr. Sizes and codes only: never saved content.
    public var logger: Logger
    /// The inbound limit, reported by `hello`.
    public var maxRequestBytes: Int
    /// The outbound limit, reported by `hello`.
    public var maxReplyBytes: Int
    /// The group whose suite this host serves, reported by `hello`.
    public var groupID: String
    /// The group's secrets (the Secret Service or the Keychain; `HostProgram`
    /// passes the system's, the default answers `secrets_unavailable`). Hand
    /// out only those marked shared, and never log a value.
    public var secrets: any SecretStore
    /// The settings, rules and page state as the extension sees them, built
    /// and cached per suite version; shared by every copy of the context.
    public var pageState = PageState()
    /// The app the host belongs to, reported by `hello`.
    public var app: AppIdentity

    public init(
        suite: SuiteStore, queue: PendingQueueing, caller: Caller, logger: Logger = .silent,
        groupID: String = GroupContainer.defaultGroupID, secrets: (any SecretStore)? = nil,
        maxRequestBytes: Int = ProtocolLimits.defaultMaxRequestBytes, maxReplyBytes: Int = ProtocolLimits.maxReplyBytes,
        app: AppIdentity = .extensionBridge
    ) {
        self.app = app
        self.suite = suite
        self.queue = queue
        self.caller = caller
        self.logger = logger
        self.groupID = groupID
        self.secrets = secrets ?? UnavailableSecretStore()
        self.maxRequestBytes = maxRequestBytes
        self.maxReplyBytes = maxReplyBytes
    }
}

/// The host's own limits, beside the protocol's (`ProtocolLimits`).
public enum HostLimits {
    /// How long one reply may wait for a browser that stopped reading.
    public static let writeTimeoutMilliseconds: Int64 = 30_000
    /// Items `getContent` lists, and the UTF-8 bytes of each one's excerpt and
    /// title at most: with JSON's escapes (6 bytes for a control character at
    /// worst) the items stay under 50 × 13 KiB ≈ 630 KiB whatever was saved.
    public static let maxItemsPerPage = 50
    public static let excerptBytes = 1_024
    public static let titleBytes = 1_024
}

/// The actions every bridge has beside `hello` and the legacy message (which
/// the endpoint always answers): the seed handler's and ours.
public enum BuiltInActions {
    public static var all: [BridgeAction] {
        [
            GetSettingsAction(), GetContentAction(), SaveContentAction(), SetSettingsAction(), QueueCountAction(),
            GetPageStateAction(), RemoveItemAction(), TransformAction(), GetSecretAction(),
        ]
    }
}
