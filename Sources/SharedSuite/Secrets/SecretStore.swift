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

/// The rules for a secret's name and value, the same for the CLI and the host.
public enum SecretName {
    /// Longest name, in UTF-8 bytes.
    public static let maxBytes = 128
    /// Largest value, in UTF-8 bytes: a token, a key, a password; it must fit
    /// a `getSecret` reply far under the browsers' 1 MiB.
    public static let maxValueBytes = 65_536

    /// Throws `SecretError.invalidName` unless `name` is 1–128 bytes of ASCII
    /// letters, digits, `.`, `_` and `-`, not starting with `.` or `-`.
    public static func validate(_ name: String) throws(SecretError) {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty else { throw .invalidName(name, "it is empty") }
        guard bytes.count <= maxBytes else {
            throw .invalidName(name, "it is \(bytes.count) bytes long; the limit is \(maxBytes) bytes")
        }
        if bytes[0] == UInt8(ascii: ".") || bytes[0] == UInt8(ascii: "-") {
            throw .invalidName(name, "it starts with '\(Character(Unicode.Scalar(bytes[0])))'")
        }
        for byte in bytes where !isAllowed(byte) {
            throw .invalidName(name, "only ASCII letters, digits, '.', '_' and '-' are allowed")
        }
    }

    /// Throws `SecretError.invalidValue` unless `value` is 1–64 KiB of UTF-8
    /// (the extension receives it as a JSON string).
    public static func validateValue(_ value: [UInt8]) throws(SecretError) {
        guard !value.isEmpty else { throw .invalidValue("the value is empty (nothing on stdin?)") }
        guard value.count <= maxValueBytes else {
            throw .invalidValue("the value is \(value.count) bytes; the limit is \(maxValueBytes) bytes")
        }
        guard String(validating: value, as: UTF8.self) != nil else {
            throw .invalidValue("the value is not UTF-8 text; encode binary secrets (base64) first")
        }
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}

/// The secret store of this platform.
public enum SecretStores {
    /// The system's store for `groupID`: the Keychain on macOS (untested
    /// here), the Secret Service through `secret-tool` elsewhere.
    public static func system(groupID: String, environment: Environment) -> any SecretStore {
        if Platform.isMacOS { return KeychainSecretStore(groupID: groupID) }
        return SecretServiceStore(groupID: groupID, environment: environment)
    }
}

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
