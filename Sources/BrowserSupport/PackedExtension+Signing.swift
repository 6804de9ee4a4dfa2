extension PackedExtension {
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
}
