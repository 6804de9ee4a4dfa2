import BridgeSystem

extension ExtensionPackage {
    /// One file `pack` writes.
    public struct ReleaseFile: Equatable, Sendable {
        /// `zip`, `xpi`, `crx`, `updates.xml` or `updates.json`.
        public var kind: String
        /// The file name in the output folder.
        public var name: String
        public var bytes: [UInt8]
    }

    /// Everything `pack` writes, in order: the Chrome Web Store zip, the XPI,
    /// the CRX and, with `updateURL`, both update manifests.
    ///
    /// Every check that needs no key comes first (the Firefox id an update
    /// URL needs, the key `source` may sign this package with), so a refusal
    /// makes no key; the key is read or made only then, and a key made by this
    /// call is removed again if signing fails.
    /// With `chromiumID` (a bridge's), a key that gives another id is refused before it signs: the
    /// CRX and updates.xml would carry the signer's id, which the bridge's host manifests do not allow.
    /// - Returns: the files, the key that signed the CRX, and whether it was made now.
    /// - Throws: `PackError` (see `firefoxXPI(updateURL:)`, `SigningKeySource`, `crx(key:updateURL:searchPath:)`;
    ///   `.keyForAnotherID`).
    public func releaseFiles(
        updateURL: UpdateURL?, signedBy source: SigningKeySource, chromiumID: String? = nil, searchPath: String?
    ) throws(PackError) -> (files: [ReleaseFile], key: ExtensionKey, createdKey: Bool) {
        var files = [
            ReleaseFile(kind: "zip", name: fileName(.chromeZip), bytes: try chromeZip()),
            ReleaseFile(kind: "xpi", name: fileName(.firefoxXPI), bytes: try firefoxXPI(updateURL: updateURL)),
        ]
        let firefoxUpdates = try updateURL.map { (url) throws(PackError) in try firefoxUpdateManifest(updateURL: url) }
        return try source.withKey(for: self, searchPath: searchPath) { (key, created) throws(PackError) in
            if let chromiumID, key.chromiumID != chromiumID {
                throw .keyForAnotherID(path: source.path, keyID: key.chromiumID, chromiumID: chromiumID)
            }
            files.append(
                ReleaseFile(
                    kind: "crx", name: fileName(.crx),
                    bytes: try crx(key: key, updateURL: updateURL, searchPath: searchPath)))
            if let updateURL, let firefoxUpdates {
                files.append(
                    ReleaseFile(
                        kind: "updates.xml", name: "updates.xml",
                        bytes: chromiumUpdateManifest(key: key, updateURL: updateURL)))
                files.append(ReleaseFile(kind: "updates.json", name: "updates.json", bytes: firefoxUpdates))
            }
            return (files, key, created)
        }
    }

    /// Refuses a package that carries `key`'s private half in a form `PrivateKeyScan.holdsPrivateKey`
    /// does not find: its base64 body without the PEM lines (`PrivateKeyScan.holdsBody(of:in:)`), in a
    /// JSON string say. Signing has the key in hand, so it looks for its bytes.
    /// - Throws: `PackError.privateKey` (65) naming the first file that holds it.
    public func refuseCarrying(_ key: ExtensionKey) throws(PackError) {
        var carried = ([("manifest.json", manifestBytes)] + files.map { ($0.path, $0.bytes) }).map {
            (extensionDirectory + "/" + $0.0, $0.1)
        }
        if let chromiumManifestPath, let chromiumManifestBytes {
            carried.append((chromiumManifestPath, chromiumManifestBytes))
        }
        for (path, bytes) in carried where PrivateKeyScan.holdsBody(of: key.privateKeyPEM, in: bytes) {
            throw .privateKey(path: path)
        }
    }

    /// True when this is ExtensionBridge's own extension: its manifest's `key` gives the built-in
    /// Chromium id and its Firefox id is the built-in one (`ExtensionIdentity.extensionBridge`).
    public var isExtensionBridge: Bool {
        let builtIn = ExtensionIdentity.extensionBridge
        guard let key = manifest["key"]?.stringValue, let id = ExtensionIdentity.chromiumID(fromKey: key) else {
            return false
        }
        return builtIn.chromiumIDs.contains(id) && firefoxID.map(builtIn.firefoxIDs.contains) == true
    }
}
