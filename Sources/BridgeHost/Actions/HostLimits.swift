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
