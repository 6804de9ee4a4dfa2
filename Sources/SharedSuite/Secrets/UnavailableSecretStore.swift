import BridgeSystem

/// A store that answers every call with `SecretError.unavailable`: what a
/// context gets when no store was passed in, so nothing reaches the user's
/// keyring by accident (unit tests, fuzzing).
public struct UnavailableSecretStore: SecretStore {
    public let reason: String

    public init(reason: String = "this bridge was given no secret store") { self.reason = reason }

    public var backendName: String { "none" }
    public func store(_ value: [UInt8], named name: String, shared: Bool) throws(SecretError) {
        throw .unavailable(reason)
    }
    public func value(named name: String, sharedOnly: Bool) throws(SecretError) -> [UInt8]? {
        throw .unavailable(reason)
    }
    public func delete(named name: String) throws(SecretError) { throw .unavailable(reason) }
    public func list() throws(SecretError) -> [SecretEntry] { throw .unavailable(reason) }
}
