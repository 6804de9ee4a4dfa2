import BridgeProtocol

/// Who launched the host, as the browser says in the arguments.
public struct Caller: Equatable, Sendable {
    public enum Kind: String, Equatable, Sendable {
        /// Chromium-family: `chrome-extension://ID/`.
        case chromium
        /// Firefox: the manifest path, then the add-on id.
        case firefox
        /// No browser arguments (started by hand).
        case unknown
    }

    public var kind: Kind
    /// The origin (`chrome-extension://ID/`), the add-on id, or `unknown`.
    public var identity: String

    public init(kind: Kind, identity: String) {
        self.kind = kind
        self.identity = identity
    }

    /// Reads the caller from the host's arguments (without the program name).
    ///
    /// Chromium passes the origin first (and on Windows `--parent-window=N`);
    /// Firefox passes the host manifest's path, then the add-on id.
    public init(arguments: [String]) {
        if let origin = arguments.first(where: { $0.hasPrefix(ExtensionOrigin.chromiumScheme) }) {
            self.init(kind: .chromium, identity: ExtensionOrigin.normalized(origin))
        } else if arguments.count >= 2, arguments[0].hasSuffix(".json") || arguments[0].hasPrefix("/") {
            self.init(kind: .firefox, identity: arguments[1])
        } else {
            self.init(kind: .unknown, identity: "unknown")
        }
    }
}
