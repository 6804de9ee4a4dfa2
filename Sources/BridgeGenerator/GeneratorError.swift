import BridgeSystem

/// Why `extension-bridge new` stopped, with the exit status a script sees.
public enum GeneratorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A missing or misused option (exit 64).
    case usage(String)
    /// A value that breaks a rule, named in the message (exit 65).
    case invalid(String)
    /// Something `new` needs is missing: the ExtensionBridge source, openssl (exit 66 / 69).
    case missing(String)
    case unavailable(String)
    /// The folder exists (exit 73 would hide it among I/O errors: 64, say --force).
    case folderExists(String)
    /// Writing failed; nothing was left half-written (exit 74).
    case io(SystemError)

    public var description: String {
        switch self {
        case .usage(let text), .invalid(let text), .missing(let text), .unavailable(let text): return text
        case .folderExists(let path):
            return "\(path) already exists; choose another --dir, or pass --force to replace it "
                + "(the old folder is kept beside it, renamed)"
        case .io(let error): return error.description
        }
    }

    /// The sysexits status for the CLI.
    public var exitStatus: Int32 {
        switch self {
        case .usage, .folderExists: return 64
        case .invalid: return 65
        case .missing: return 66
        case .unavailable: return 69
        case .io: return 74
        }
    }
}
