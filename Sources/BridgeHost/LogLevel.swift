import BridgeJSON
import BridgeSystem

/// Log levels, from quietest to loudest.
public enum LogLevel: Int, Comparable, Sendable {
    case error = 0, warn, info, debug

    public static func < (a: LogLevel, b: LogLevel) -> Bool { a.rawValue < b.rawValue }

    /// Parses `error`, `warn`, `info`, `debug`.
    public init?(name: String) {
        switch name.lowercased() {
        case "error": self = .error
        case "warn", "warning": self = .warn
        case "info": self = .info
        case "debug": self = .debug
        default: return nil
        }
    }
}
