/// The limits both ends of the protocol agree on (docs/PROTOCOL.md). Every
/// size is in UTF-8 bytes.
public enum ProtocolLimits {
    /// The largest frame a browser accepts from a host: 1 MiB in Chrome and
    /// Firefox. No frame the host writes is larger, error replies included.
    public static let maxReplyBytes = 1_048_576
    /// The largest frame the host reads by default: 64 MiB, as Chrome allows.
    public static let defaultMaxRequestBytes = 64 << 20
    /// Nesting of arrays and objects in a request.
    public static let maxDepth = 64
    /// The longest string `id` a request may carry, in UTF-8 bytes.
    public static let maxIDBytes = 128
}
