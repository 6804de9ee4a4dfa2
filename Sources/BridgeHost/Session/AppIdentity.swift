import BridgeProtocol

/// Which app a host belongs to: a bridge made by `new` is its app's, not
/// ExtensionBridge's, so `--version`, `--help` and `hello` say the app's name
/// and version (and the ExtensionBridge version it is built on beside them).
public struct AppIdentity: Equatable, Sendable {
    /// The app's name as users see it (`Linguisticat`).
    public var name: String
    /// The app's version (`1.0.0`): `hello`'s `hostVersion`.
    public var version: String

    public init(name: String, version: String) {
        self.name = name
        self.version = version
    }

    /// The built-in bridge.
    public static let extensionBridge = AppIdentity(name: "ExtensionBridge", version: BridgeVersion.current)

    /// `--version`'s line: `extension-bridge-host 0.1.0`, or for an app's host
    /// `linguisticat-host 1.0.0 (Linguisticat, built on ExtensionBridge 0.1.0)`.
    public func versionLine(program: String) -> String {
        self == .extensionBridge
            ? "\(program) \(version)"
            : "\(program) \(version) (\(name), built on ExtensionBridge \(BridgeVersion.current))"
    }
}
