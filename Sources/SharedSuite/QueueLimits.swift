import BridgeJSON
import BridgeProtocol
import BridgeSystem

/// Quotas of the pending queue.
public struct QueueLimits: Equatable, Sendable {
    /// Most items waiting at once.
    public var maxItems: Int
    /// Most bytes (items and their content files) waiting at once.
    public var maxBytes: Int
    /// Largest content of one item, in UTF-8 bytes.
    public var maxItemBytes: Int
    /// Content larger than this goes to a shared file instead of inline.
    public var inlineBytes: Int
    /// How long an idempotency key is remembered after its item was queued:
    /// a resend or the same selection saved again within it adds nothing.
    public var keyWindowSeconds: Int64

    public init(
        maxItems: Int = 10_000, maxBytes: Int = 512 << 20, maxItemBytes: Int = 64 << 20, inlineBytes: Int = 64 << 10,
        keyWindowSeconds: Int64 = 86_400
    ) {
        self.maxItems = maxItems
        self.maxBytes = maxBytes
        self.maxItemBytes = maxItemBytes
        self.inlineBytes = inlineBytes
        self.keyWindowSeconds = keyWindowSeconds
    }

    /// Defaults, overridden by `EXTENSION_BRIDGE_QUEUE_MAX_ITEMS`,
    /// `EXTENSION_BRIDGE_QUEUE_MAX_BYTES` and `EXTENSION_BRIDGE_ITEM_MAX_BYTES`.
    public init(environment: Environment) {
        self.init()
        if let v = environment[EnvironmentVariable.queueMaxItems].flatMap({ Int($0) }), v >= 0 { maxItems = v }
        if let v = environment[EnvironmentVariable.queueMaxBytes].flatMap({ Int($0) }), v >= 0 { maxBytes = v }
        if let v = environment[EnvironmentVariable.itemMaxBytes].flatMap({ Int($0) }), v >= 0 { maxItemBytes = v }
    }
}
