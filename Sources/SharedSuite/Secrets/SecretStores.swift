import BridgeSystem

/// The secret store of this platform.
public enum SecretStores {
    /// The system's store for `groupID`: the Secret Service through
    /// `secret-tool`; on macOS (untested here) the Keychain read through
    /// `/usr/bin/security` (`KeychainReader`, which only reads: the CLI writes
    /// with `BridgeKeychain`'s `KeychainSecretStore`).
    public static func system(groupID: String, environment: Environment) -> any SecretStore {
        if Platform.isMacOS { return KeychainReader(groupID: groupID, environment: environment) }
        return SecretServiceStore(groupID: groupID, environment: environment)
    }
}
