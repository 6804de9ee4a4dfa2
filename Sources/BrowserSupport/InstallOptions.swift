import BridgeJSON
import BridgeProtocol
import BridgeSystem

/// What `install` should write.
public struct InstallOptions: Equatable, Sendable {
    public var browsers: [Browser]
    public var system: Bool
    /// `--user-data-dir DIR`: write `DIR/NativeMessagingHosts` instead of the browser's folder.
    public var userDataDirectory: String?
    public var hostName: String
    /// Absolute path of the installed host (a stable path, not a build folder).
    public var hostPath: String
    public var identity: ExtensionIdentity
    /// The group the host serves (`--suite`); nil: the host's default.
    public var group: String?
    /// The host's log level (`--log-level`); nil: the host's default (`warn`).
    public var logLevel: String?
    /// A generated bridge's host, to copy to `hostPath` (`install --config`);
    /// nil: `hostPath` is already where it stays.
    public var hostBinary: [UInt8]?
    /// The extension itself, packed (`install --crx`): for Chromium-family
    /// browsers that read `External Extensions`; nil: only the host is registered.
    public var packedExtension: PackedExtension?

    public init(
        browsers: [Browser], system: Bool = false, userDataDirectory: String? = nil,
        hostName: String = HostIdentity.defaultHostName, hostPath: String, identity: ExtensionIdentity,
        group: String? = nil, logLevel: String? = nil
    ) {
        self.group = group
        self.logLevel = logLevel
        self.browsers = browsers
        self.system = system
        self.userDataDirectory = userDataDirectory
        self.hostName = hostName
        self.hostPath = hostPath
        self.identity = identity
    }
}
