import BridgeJSON
import BridgeProtocol
import BridgeSystem

/// One file install writes.
public struct PlannedFile: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case manifest(browser: String)
        /// The host's configuration file beside it (group, log level, callers).
        case configuration
        /// The allowlist file that installs before the configuration file wrote.
        case allowlist
        /// A generated bridge's host, copied to a stable folder (`install --config`).
        case hostBinary
        /// `<user data>/External Extensions/<id>.json`: a browser installs the CRX it names.
        case externalExtension(browser: String)
        /// The signed CRX that file names.
        case packedExtension
        /// The signing key, when install made it.
        case signingKey

        /// Whether the file is text a person may be shown (`--dry-run`): not a
        /// binary, and never a private key.
        public var isText: Bool {
            switch self {
            case .hostBinary, .packedExtension, .signingKey: false
            default: true
            }
        }
    }

    public var path: String
    public var bytes: [UInt8]
    public var kind: Kind

    public init(path: String, bytes: [UInt8], kind: Kind) {
        self.path = path
        self.bytes = bytes
        self.kind = kind
    }

    /// Mode bits on disk: the host is executable.
    var permissions: Int {
        switch kind {
        case .hostBinary: 0o755
        case .signingKey: 0o600
        default: 0o644
        }
    }
}
