import BridgeJSON
import BridgeProtocol
import BridgeSystem

/// The ids browsers know our extension by, read from its manifest.
public struct ExtensionIdentity: Equatable, Sendable {
    /// Chromium ids (32 letters a–p); origins are `chrome-extension://ID/`.
    public var chromiumIDs: [String]
    /// Firefox add-on ids (`browser_specific_settings.gecko.id`).
    public var firefoxIDs: [String]

    public init(chromiumIDs: [String], firefoxIDs: [String]) {
        self.chromiumIDs = chromiumIDs
        self.firefoxIDs = firefoxIDs
    }

    /// ExtensionBridge's own extension (`extension/manifest.json`): its `key`'s Chromium id and its Firefox id.
    public static let extensionBridge = ExtensionIdentity(
        chromiumIDs: ["honlgoealnaplikdeeidpcknncfcnfmo"], firefoxIDs: ["extension-bridge@extensionbridge.org"])

    /// The Chromium id of an extension whose manifest `key` is `base64Key`:
    /// the first 128 bits of SHA-256 of the DER public key, hex digits 0–f
    /// written as the letters a–p.
    public static func chromiumID(fromKey base64Key: String) -> String? {
        guard let der = Base64.decode(base64Key), !der.isEmpty else { return nil }
        let letters = Array("abcdefghijklmnop")
        var id = ""
        for byte in SHA256.digest(der).prefix(16) {
            id.append(letters[Int(byte >> 4)])
            id.append(letters[Int(byte & 0xF)])
        }
        return id
    }

    /// True for a string shaped like a Chromium extension id.
    public static func isChromiumID(_ text: String) -> Bool {
        text.count == 32 && text.utf8.allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "p") }
    }

    /// True for a Firefox add-on id as Mozilla defines it: `{GUID}` or
    /// `name@domain` (letters, digits, `.`, `-`, `_`; the name may be empty),
    /// at most 255 bytes. Nothing else goes into a host manifest or the host's
    /// configuration as a Firefox caller.
    public static func isFirefoxID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 255 else { return false }
        func isHex(_ b: UInt8) -> Bool { (b >= 48 && b <= 57) || (b >= 65 && b <= 70) || (b >= 97 && b <= 102) }
        if bytes.first == UInt8(ascii: "{") {
            let groups = [8, 4, 4, 4, 12]
            guard bytes.count == 38, bytes.last == UInt8(ascii: "}") else { return false }
            var i = 1
            for (n, length) in groups.enumerated() {
                guard bytes[i..<(i + length)].allSatisfy(isHex) else { return false }
                i += length
                if n < groups.count - 1 {
                    guard bytes[i] == UInt8(ascii: "-") else { return false }
                    i += 1
                }
            }
            return true
        }
        func isPlain(_ b: UInt8) -> Bool {
            (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 45 || b == 46 || b == 95
        }
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")), at + 1 < bytes.count else { return false }
        return bytes[..<at].allSatisfy(isPlain) && bytes[(at + 1)...].allSatisfy(isPlain)
    }

    /// Reads `manifest.json` in `extensionDirectory`.
    /// - Throws: `InstallError.extensionManifest` saying what is missing.
    public static func load(extensionDirectory: String) throws(InstallError) -> ExtensionIdentity {
        let path = extensionDirectory + "/manifest.json"
        let manifest: JSONValue
        do {
            manifest = try JSONParser.parse(FileSystem.readFile(path, limit: 1 << 20))
        } catch let error as SystemError {
            throw .extensionManifest(path: path, reason: error.description)
        } catch {
            throw .extensionManifest(path: path, reason: "not JSON (\(error))")
        }
        guard let key = manifest["key"]?.stringValue, let id = chromiumID(fromKey: key) else {
            throw .extensionManifest(path: path, reason: "no usable \"key\" (the Chromium id is derived from it)")
        }
        guard let gecko = manifest["browser_specific_settings"]?["gecko"]?["id"]?.stringValue else {
            throw .extensionManifest(path: path, reason: "no browser_specific_settings.gecko.id (Firefox needs it)")
        }
        guard isFirefoxID(gecko) else {
            throw .extensionManifest(
                path: path,
                reason: "browser_specific_settings.gecko.id '\(HostConfiguration.UnsafeValue.shown(gecko))' is not a "
                    + "Firefox add-on id (name@domain or {GUID})")
        }
        return ExtensionIdentity(chromiumIDs: [id], firefoxIDs: [gecko])
    }

    /// Adds ids given on the command line: Chromium-shaped ones (or
    /// `chrome-extension://ID/` origins) to Chromium, Firefox add-on ids to Firefox.
    /// - Throws: `InstallError.invalidExtensionID` for anything else, before adding any.
    public mutating func add(_ extra: [String]) throws(InstallError) {
        for raw in extra where !raw.isEmpty {
            var id = raw
            if id.hasPrefix(ExtensionOrigin.chromiumScheme) {
                id = String(id.dropFirst(ExtensionOrigin.chromiumScheme.count))
                while id.hasSuffix("/") { id.removeLast() }
            }
            if !ExtensionIdentity.isChromiumID(id) && !ExtensionIdentity.isFirefoxID(id) {
                throw .invalidExtensionID(raw)
            }
        }
        for raw in extra where !raw.isEmpty {
            var id = raw
            if id.hasPrefix(ExtensionOrigin.chromiumScheme) {
                id = String(id.dropFirst(ExtensionOrigin.chromiumScheme.count))
                while id.hasSuffix("/") { id.removeLast() }
            }
            if ExtensionIdentity.isChromiumID(id) {
                if !chromiumIDs.contains(id) { chromiumIDs.append(id) }
            } else if !firefoxIDs.contains(id) {
                firefoxIDs.append(id)
            }
        }
    }

    /// Chromium origins, as `allowed_origins` and the allowlist name them.
    public var chromiumOrigins: [String] { chromiumIDs.map(ExtensionOrigin.chromium(id:)) }
}
