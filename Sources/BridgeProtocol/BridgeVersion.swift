/// The one version constant reported by the host, the CLI, `hello` and `doctor`.
public enum BridgeVersion {
    /// The release version of ExtensionBridge.
    public static let current = "0.1.0"
    /// The native-messaging protocol version (docs/PROTOCOL.md).
    public static let protocolVersion = 1
}
