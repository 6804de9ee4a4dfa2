import BridgeJSON
import BridgeProtocol

/// A native-messaging host manifest, as `manifests/*.json.in` describe it.
public struct HostManifest: Equatable, Sendable {
    /// The default host name.
    public static let defaultName = HostIdentity.defaultHostName
    public static let description = "ExtensionBridge native-messaging host"

    public var name: String
    public var path: String
    public var family: BrowserFamily
    /// Origins (Chromium) or add-on ids (Firefox).
    public var allowed: [String]

    public init(name: String, path: String, family: BrowserFamily, allowed: [String]) {
        self.name = name
        self.path = path
        self.family = family
        self.allowed = allowed
    }

    /// Chrome's rule, which Firefox shares: lowercase letters, digits, `_`,
    /// and dots that neither start, end, nor follow another dot.
    public static func validate(name: String) throws(InstallError) {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        let ok =
            !name.isEmpty && name.utf8.count <= 255
            && parts.allSatisfy { part in
                !part.isEmpty
                    && part.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }
            }
        if !ok { throw .invalidHostName(name) }
    }

    /// The key that lists who may connect.
    public var allowedKey: String { HostIdentity.allowedCallersKey(chromium: family == .chromium) }

    /// The manifest JSON.
    public var json: JSONValue {
        .object([
            "name": .string(name), "description": .string(HostManifest.description), "path": .string(path),
            "type": "stdio", allowedKey: .array(allowed.map(JSONValue.string)),
        ])
    }

    /// The file's bytes: pretty JSON and a final newline.
    public var bytes: [UInt8] { JSONWriter.prettyBytes(json) }
}
