import BridgeJSON
import BridgeProtocol
import BridgeSystem

/// The extension as a signed CRX, for browsers' `External Extensions` folders:
/// the browser installs it at its next start, enabled, without Developer mode.
public struct PackedExtension: Equatable, Sendable {
    /// A file install made and records, so uninstall removes it with the rest.
    public struct CreatedFile: Equatable, Sendable {
        public var path: String
        public var bytes: [UInt8]

        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// The CRX's bytes, and the absolute path it is written to (the browser reads it there).
    public var crx: [UInt8]
    public var crxPath: String
    /// The id of the key that signed it: the id the browser gives the extension.
    public var chromiumID: String
    /// The manifest's version: a higher one makes the browser update its copy.
    public var version: String
    /// The signing key, when this install made it (a key that was there before is not ours to remove).
    public var createdKey: CreatedFile?

    public init(crx: [UInt8], crxPath: String, chromiumID: String, version: String, createdKey: CreatedFile? = nil) {
        self.crx = crx
        self.crxPath = crxPath
        self.chromiumID = chromiumID
        self.version = version
        self.createdKey = createdKey
    }

    /// What a browser's `External Extensions/<id>.json` says: where the CRX is, and its version.
    var externalFile: [UInt8] {
        JSONWriter.prettyBytes(["external_crx": .string(crxPath), "external_version": .string(version)])
    }
}
