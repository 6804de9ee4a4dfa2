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

    /// `package` as a CRX signed with the key from `source` (made when it is the machine's and there is
    /// none; removed again if signing fails), to be read from `crxFolder`: one file name across versions,
    /// so an upgrade replaces the file the browser reads instead of leaving the old one.
    /// - Throws: what `SigningKeySource.withKey(for:searchPath:_:)` and `ExtensionPackage.crx` throw.
    public static func make(
        _ package: ExtensionPackage, signedBy source: SigningKeySource, crxFolder: String, searchPath: String?
    ) throws(PackError) -> PackedExtension {
        try source.withKey(for: package, searchPath: searchPath) { (key, created) throws(PackError) in
            var packed = PackedExtension(
                crx: try package.crx(key: key, updateURL: nil, searchPath: searchPath),
                crxPath: crxFolder + "/" + package.slug + ".crx", chromiumID: key.chromiumID,
                version: package.version)
            if created { packed.createdKey = CreatedFile(path: source.path, bytes: key.privateKeyPEM) }
            return packed
        }
    }

    /// What a browser's `External Extensions/<id>.json` says: where the CRX is, and its version.
    var externalFile: [UInt8] {
        JSONWriter.prettyBytes(["external_crx": .string(crxPath), "external_version": .string(version)])
    }
}
