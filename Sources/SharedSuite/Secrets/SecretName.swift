import BridgeSystem

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
