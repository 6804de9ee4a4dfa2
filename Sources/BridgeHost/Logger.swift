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

/// Writes log lines to a sink (stderr in the host). Never to stdout: it carries frames.
/// Callers never pass saved content to it; sizes and codes only.
public struct Logger: Sendable {
    public var level: LogLevel
    private let sink: @Sendable (String) -> Void

    public init(level: LogLevel, sink: @escaping @Sendable (String) -> Void) {
        self.level = level
        self.sink = sink
    }

    /// A logger to stderr, each line prefixed with `name[pid]: `.
    public static func standardError(level: LogLevel, name: String) -> Logger {
        let prefix = "\(name)[\(Platform.processID)]: "
        return Logger(level: level) { line in
            try? FileDescriptor.standardError.writeAll(Array((prefix + line + "\n").utf8))
        }
    }

    /// A logger that drops everything.
    public static let silent = Logger(level: .error) { _ in }

    public func log(_ messageLevel: LogLevel, _ message: @autoclosure () -> String) {
        guard messageLevel <= level else { return }
        sink("\(messageLevel): \(message())")
    }

    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func warn(_ message: @autoclosure () -> String) { log(.warn, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}

/// Text from a request made safe for a log line: control characters (C0,
/// DEL, C1) and the bidi controls are shown as `\u{…}`, and the result is
/// cut to `maxBytes` UTF-8 bytes (a page chooses action names and ids).
public enum LogText {
    public static func escaped(_ text: String, maxBytes: Int) -> String {
        var out = ""
        var used = 0
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let piece: String
            if v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) {
                piece = "\\u{" + String(v, radix: 16) + "}"
            } else {
                piece = String(scalar)
            }
            if used + piece.utf8.count > maxBytes {
                out += "…"
                break
            }
            used += piece.utf8.count
            out += piece
        }
        return out
    }
}
