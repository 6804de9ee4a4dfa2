import BridgeJSON
import BridgeSystem

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

    /// This logger, also handing each line it writes to `other` (`extension-bridge run`'s trace).
    public func alsoWriting(to other: @escaping @Sendable (String) -> Void) -> Logger {
        let sink = self.sink
        return Logger(level: level) { line in
            sink(line)
            other(line)
        }
    }

    /// A logger that drops everything.
    public static let silent = Logger(level: .error) { _ in }

    /// The longest line written, in UTF-8 bytes; longer ones end with `…`.
    public static let maxLineBytes = 4096

    /// Writes one line: control characters (line breaks included) escaped, so
    /// a field from a request can neither drive a terminal showing the log nor
    /// forge a second line; cut to `maxLineBytes`.
    public func log(_ messageLevel: LogLevel, _ message: @autoclosure () -> String) {
        guard messageLevel <= level else { return }
        sink(DisplayText.escaped("\(messageLevel): \(message())", maxBytes: Logger.maxLineBytes))
    }

    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func warn(_ message: @autoclosure () -> String) { log(.warn, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
}
