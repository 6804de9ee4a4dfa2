import SharedSuite

/// An in-memory secret store for unit tests: one group's secrets, in this process only.
public final class MemorySecretStore: SecretStore {
    public var secrets: [String: (value: [UInt8], shared: Bool)] = [:]
    /// When set, every call fails with it (a missing keyring).
    public var failure: SecretError?

    public init() {}

    public var backendName: String { "memory" }

    public func store(_ value: [UInt8], named name: String, shared: Bool) throws(SecretError) {
        if let failure { throw failure }
        secrets[name] = (value, shared)
    }

    public func value(named name: String, sharedOnly: Bool) throws(SecretError) -> [UInt8]? {
        if let failure { throw failure }
        guard let secret = secrets[name], !sharedOnly || secret.shared else { return nil }
        return secret.value
    }

    public func delete(named name: String) throws(SecretError) {
        if let failure { throw failure }
        guard secrets.removeValue(forKey: name) != nil else { throw .notFound(name) }
    }

    public func list() throws(SecretError) -> [SecretEntry] {
        if let failure { throw failure }
        return secrets.map { SecretEntry(name: $0.key, shared: $0.value.shared) }.sorted { $0.name < $1.name }
    }
}
