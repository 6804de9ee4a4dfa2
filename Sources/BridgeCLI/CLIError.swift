import BridgeGenerator
import BridgeJSON
import BrowserSupport
import SharedSuite

/// A failed command: what to tell the person, and the exit status
/// (sysexits: 64 usage, 65 bad data, 66 missing, 73 a file install must not change, 74 I/O,
/// 75 lock timeout, 77 refused for safety; 123, as xargs reports it, when a command the CLI ran
/// for an item failed; 130, as a shell reports Ctrl-C, when a signal cancelled a prompt or stopped
/// a `queue drain --exec`; 141, as a shell reports SIGPIPE, when the reader of standard output
/// went away during a queue hand-over). `HelpText.exitStatus` says the same to users.
public struct CLIError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Int32, Sendable {
        case usage = 64
        case data = 65
        case missing = 66
        case unavailable = 69
        case software = 70
        case cantCreate = 73
        case io = 74
        case lockTimeout = 75
        /// Refused for safety: something found belongs to, or may be changed by, another user.
        case noPermission = 77
        /// `queue drain --exec`: CMD failed (or timed out) on an item, which stays queued.
        case commandFailed = 123
        case interrupted = 130
        /// The reader of standard output went away: what it did not read stays queued.
        case readerGone = 141
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
    public var exitStatus: Int32 { kind.rawValue }

    /// A usage error that points at the verb's help.
    public static func usage(_ message: String, verb: String? = nil) -> CLIError {
        let hint = verb.map { "run `extension-bridge \($0) --help`" } ?? "run `extension-bridge --help`"
        return CLIError(.usage, "\(message); \(hint)")
    }

    /// A relative HOME: every file found from it would be another one in each folder. One
    /// sentence for every verb that finds its files from HOME (install, doctor, pack, the suite's).
    public static func relativeHome(_ home: String) -> CLIError {
        CLIError(.io, "HOME '\(DisplayText.escaped(home))' is not an absolute path; set it to the home folder, /…")
    }

    /// Maps a suite error to its exit status.
    public init(_ error: SuiteError) {
        switch error {
        case .corrupt, .newerFormat, .invalidValue, .contentTooLarge: self.init(.data, error.description)
        case .notFound: self.init(.missing, error.description)
        case .lockTimeout, .itemBeingHandedOver: self.init(.lockTimeout, error.description)
        case .invalidGroupID, .invalidName: self.init(.usage, error.description)
        case .io, .noHome, .queueFull: self.init(.io, error.description)
        }
    }
}

/// Runs `body`, turning a suite error into a CLI error.
func suite<T>(_ body: () throws(SuiteError) -> T) throws(CLIError) -> T {
    do {
        return try body()
    } catch {
        throw CLIError(error)
    }
}

/// Runs `body`, turning a packing error into a CLI error with its exit status.
func pack<T>(_ body: () throws(PackError) -> T) throws(CLIError) -> T {
    do {
        return try body()
    } catch {
        throw CLIError(CLIError.Kind(rawValue: error.exitStatus) ?? .software, error.description)
    }
}

/// Runs `body`, turning a generator error (or a packing one: `new` makes a key pair) into a CLI error
/// with its exit status.
func generating(_ body: () throws -> Void) throws(CLIError) {
    do {
        try body()
    } catch let error as GeneratorError {
        throw CLIError(CLIError.Kind(rawValue: error.exitStatus) ?? .software, error.description)
    } catch let error as PackError {
        throw CLIError(CLIError.Kind(rawValue: error.exitStatus) ?? .software, error.description)
    } catch let error as CLIError {
        throw error
    } catch {
        throw CLIError(.software, "\(error)")
    }
}

extension InstallError {
    /// The exit status of an install, uninstall or receipt refusal, one table for every verb: 73 for
    /// a file that is not ours to change, 77 for a receipt another user could have written, else 74.
    var exitKind: CLIError.Kind {
        switch self {
        case .packageOwned, .notOurs, .otherProgramsManifest, .linkedManifest: .cantCreate
        case .untrustedReceipt, .untrustedDestination: .noPermission
        default: .io
        }
    }
}
