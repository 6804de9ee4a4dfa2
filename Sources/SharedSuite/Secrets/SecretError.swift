/// Why a secret could not be stored, read or listed.
public enum SecretError: Error, Equatable, CustomStringConvertible {
    /// No secret store answered (no session bus, no keyring, a locked keyring
    /// the user did not unlock, no client tool); the text says what to do.
    /// Nothing was stored instead.
    case unavailable(String)
    /// No secret of that name in this group.
    case notFound(String)
    /// A name that breaks the rules (`SecretName.validate`).
    case invalidName(String, String)
    /// A value that breaks the rules (`SecretName.validateValue`).
    case invalidValue(String)

    public var description: String {
        switch self {
        case .unavailable(let why): return "secrets unavailable: \(why)"
        case .notFound(let name): return "no secret named '\(name)' in this group; see `extension-bridge secret list`"
        case .invalidName(let name, let why):
            return "invalid secret name '\(SecretError.printable(name))': \(why)"
        case .invalidValue(let why): return "invalid secret value: \(why)"
        }
    }

    /// `text` cut to 64 scalars with control characters escaped, safe for a terminal or a log.
    static func printable(_ text: String) -> String {
        var out = ""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == 64 {
                out += "…"
                break
            }
            let value = scalar.value
            if value < 0x20 || (0x7F...0x9F).contains(value) || (0x200E...0x202E).contains(value)
                || (0x2066...0x2069).contains(value)
            {
                out += "\\u{\(String(value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
