import BridgeSystem

/// The user's secrets for one group: the counterpart of the Keychain items an
/// app shares with its extensions through a Keychain access group.
///
/// An implementation talks to the system's own store (the Secret Service on
/// Linux, the Keychain on macOS) and never keeps a value anywhere else: not in
/// the suite, the queue, a temporary file or a log. Where the store does not
/// answer it throws `SecretError.unavailable`; it never falls back to a file.
/// Names reaching an implementation have been checked with `SecretName.validate`.
public protocol SecretStore {
    /// Where the secrets live, for `doctor` (`Secret Service (secret-tool)`).
    var backendName: String { get }

    /// Stores `value` under `name`, replacing any earlier value and its `shared` mark.
    func store(_ value: [UInt8], named name: String, shared: Bool) throws(SecretError)

    /// The value stored under `name`; with `sharedOnly`, only when it is marked
    /// shared. Nil when there is none.
    func value(named name: String, sharedOnly: Bool) throws(SecretError) -> [UInt8]?

    /// Removes the secret `name`; `SecretError.notFound` when there is none.
    func delete(named name: String) throws(SecretError)

    /// Every secret of the group, sorted by name.
    func list() throws(SecretError) -> [SecretEntry]
}
