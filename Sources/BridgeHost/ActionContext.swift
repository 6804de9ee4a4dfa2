import BridgeSystem
import SharedSuite

/// What an action may use: passed in, never global.
public struct ActionContext {
    public var suite: SuiteStore
    public var queue: PendingQueueing
    public var caller: Caller
    public var logger: Logger
    /// The inbound limit, reported by `hello`.
    public var maxRequestBytes: Int
    /// The outbound limit, reported by `hello`.
    public var maxReplyBytes: Int
    /// The router's action names (in registration order), reported by `hello`.
    public var actionNames: [String] = []
    /// Settings and rules encoded per suite version, shared by every copy of the context.
    public var published = PublishedState()

    public init(
        suite: SuiteStore, queue: PendingQueueing, caller: Caller, logger: Logger = .silent,
        maxRequestBytes: Int = HostLimits.defaultMaxRequestBytes, maxReplyBytes: Int = HostLimits.maxReplyBytes
    ) {
        self.suite = suite
        self.queue = queue
        self.caller = caller
        self.logger = logger
        self.maxRequestBytes = maxRequestBytes
        self.maxReplyBytes = maxReplyBytes
    }
}

/// The host's limits (docs/PROTOCOL.md).
public enum HostLimits {
    /// Inbound frames up to 64 MiB, as Chrome allows.
    public static let defaultMaxRequestBytes = 64 << 20
    /// Outbound frames up to 1 MiB, the browsers' limit.
    public static let maxReplyBytes = 1_048_576
    /// How long one reply may wait for a browser that stopped reading.
    public static let writeTimeoutMilliseconds: Int64 = 30_000
    /// Nesting of arrays and objects in a request.
    public static let maxDepth = 64
    /// Items `getContent` lists, and the excerpt length of each.
    public static let maxItemsPerPage = 50
    public static let excerptCharacters = 280
}

/// One named action of the router.
public protocol BridgeAction {
    /// The `action` value that selects it.
    var name: String { get }
    /// Answers `request`; never throws: failures become error replies.
    func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply
}
