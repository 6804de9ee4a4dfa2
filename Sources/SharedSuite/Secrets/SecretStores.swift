import BridgeSystem

/// The secret store of this platform.
public enum SecretStores {
    /// The system's store for `groupID`: the Keychain on macOS (untested
    /// here), the Secret Service through `secret-tool` elsewhere.
    public static func system(groupID: String, environment: Environment) -> any SecretStore {
        if Platform.isMacOS { return KeychainSecretStore(groupID: groupID) }
        return SecretServiceStore(groupID: groupID, environment: environment)
    }
}
