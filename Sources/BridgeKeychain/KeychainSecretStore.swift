import BridgeSystem
import SharedSuite

/// Secrets in the macOS login Keychain through Security.framework, for the
/// CLI's `secret set/get/delete/list`: service `extension-bridge:<group id>`,
/// account the name, comment `shared` or `private`. The host reads the same
/// items with SharedSuite's `KeychainReader` (`/usr/bin/security`), so it
/// links neither Foundation nor Security. **Untested here**: the test
/// machines run Linux, where the CLI uses `SecretServiceStore`. A sandboxed app that shares items with its
/// extensions through a Keychain access group would add
/// `kSecAttrAccessGroup`; a command-line bridge has no entitlements, so the
/// Keychain asks the user the first time another program reads an item.
public struct KeychainSecretStore: SecretStore {
    public let groupID: String

    public init(groupID: String) { self.groupID = groupID }

    /// The store the CLI uses: this one on macOS, `SecretStores.system` elsewhere.
    public static func system(groupID: String, environment: Environment) -> any SecretStore {
        Platform.isMacOS
            ? KeychainSecretStore(groupID: groupID) : SecretStores.system(groupID: groupID, environment: environment)
    }

    public var backendName: String { "macOS Keychain (untested here)" }

    private var service: String { "\(SecretServiceStore.application):\(groupID)" }

    public func store(_ value: [UInt8], named name: String, shared: Bool) throws(SecretError) {
        do {
            try Keychain.set(service: service, account: name, comment: shared ? "shared" : "private", value: value)
        } catch {
            throw Self.unavailable(error)
        }
    }

    public func value(named name: String, sharedOnly: Bool) throws(SecretError) -> [UInt8]? {
        let item: (value: [UInt8], comment: String)?
        do {
            item = try Keychain.get(service: service, account: name)
        } catch {
            throw Self.unavailable(error)
        }
        guard let item, !sharedOnly || item.comment == "shared" else { return nil }
        return item.value
    }

    public func delete(named name: String) throws(SecretError) {
        let removed: Bool
        do {
            removed = try Keychain.delete(service: service, account: name)
        } catch {
            throw Self.unavailable(error)
        }
        if !removed { throw .notFound(name) }
    }

    public func list() throws(SecretError) -> [SecretEntry] {
        do {
            return try Keychain.list(service: service)
                .map { SecretEntry(name: $0.account, shared: $0.comment == "shared") }
                .sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        } catch {
            throw Self.unavailable(error)
        }
    }

    /// What the CLI says when the Keychain fails: there is none, or it refused and why.
    static func unavailable(_ failure: Keychain.Failure) -> SecretError {
        switch failure {
        case .unsupported: return .unavailable("there is no Keychain on this system")
        case .status(let code, let message):
            return .unavailable("the Keychain refused (\(code): \(message)); unlock it and try again")
        }
    }
}
