import BridgeSystem

/// One stored secret as `secret list` shows it: its name and whether the
/// host may hand it to the extension. Never its value.
public struct SecretEntry: Equatable, Sendable {
    public var name: String
    /// True when `getSecret` may answer with it (`secret set NAME --shared`).
    public var shared: Bool

    public init(name: String, shared: Bool) {
        self.name = name
        self.shared = shared
    }
}
