import BridgeSystem

/// Which key signs a CRX, and the rule each kind of key follows.
///
/// A CRX installs under its signing key's id, and `install --crx` puts the
/// machine key's id into the built-in host's allowed callers: any extension
/// signed with that key could talk to the user's host and read their suite.
/// So the machine key signs ExtensionBridge's own extension only; any other
/// extension is signed with a key of its own (`--key`, or a generated
/// project's), which is never made here.
public enum SigningKeySource: Equatable, Sendable {
    /// A key file given with `--key`, or a generated project's
    /// `keys/extension-private-key.pem`: read as it is, never made.
    case file(String)
    /// This machine's key (`ExtensionKey.machineKeyPath(home:environment:)`): made on first use.
    case machine(String)

    /// The key file's path.
    public var path: String {
        switch self {
        case .file(let path), .machine(let path): path
        }
    }

    /// Refuses, before any key is read or made, to sign `package` with a key
    /// that may not sign it: the machine key and an extension that is not
    /// ExtensionBridge's own (`ExtensionPackage.isExtensionBridge`).
    /// - Throws: `PackError.machineKeyForAnotherExtension` (65).
    public func check(for package: ExtensionPackage) throws(PackError) {
        if case .machine = self, !package.isExtensionBridge {
            throw .machineKeyForAnotherExtension(path: package.extensionDirectory)
        }
    }

    /// Checks the key may sign `package` (`check(for:)`), then reads it, or
    /// makes the machine key when there is none.
    /// - Returns: the key, and whether this call made it.
    /// - Throws: what `check(for:)`, `ExtensionKey.load(from:searchPath:)` and
    ///   `ExtensionKey.loadOrCreate(at:searchPath:)` throw.
    public func load(for package: ExtensionPackage, searchPath: String?) throws(PackError) -> (
        key: ExtensionKey, created: Bool
    ) {
        try check(for: package)
        switch self {
        case .file(let path): return (try ExtensionKey.load(from: path, searchPath: searchPath), false)
        case .machine(let path): return try ExtensionKey.loadOrCreate(at: path, searchPath: searchPath)
        }
    }

    /// Runs `use` with the key (`load(for:searchPath:)`), after refusing a package
    /// that carries it (`ExtensionPackage.refuseCarrying(_:)`); when that or `use` fails and
    /// this call made the key, removes it again: the key signed nothing, and a
    /// command that fails changes nothing.
    public func withKey<T>(
        for package: ExtensionPackage, searchPath: String?,
        _ use: (ExtensionKey, Bool) throws(PackError) -> T
    ) throws(PackError) -> T {
        let (key, created) = try load(for: package, searchPath: searchPath)
        do {
            try package.refuseCarrying(key)
            return try use(key, created)
        } catch {
            if created { try? FileSystem.remove(path) }
            throw error
        }
    }
}
