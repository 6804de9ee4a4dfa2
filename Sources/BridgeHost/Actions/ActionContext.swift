import BridgeProtocol
import SharedSuite

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
