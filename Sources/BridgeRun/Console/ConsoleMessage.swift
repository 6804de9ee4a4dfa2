/// An error (or, with `--verbose`, any console line) from the extension's own code,
/// tagged with where it ran.
public struct ConsoleMessage: Equatable, Sendable {
    /// Where the code ran.
    public enum Origin: Equatable, Sendable {
        /// The background (service worker, event page or background page).
        case background
        /// The toolbar popup.
        case popup
        /// A content script, in the page at this URL.
        case content(page: String)
        /// Another page of the extension (options, a page opened in a tab), by its path.
        case page(path: String)
    }

    /// What kind of line it is.
    public enum Kind: String, Equatable, Sendable {
        /// An exception nothing caught (or a promise rejection nothing handled).
        case uncaught
        case error, warn, info, log, debug

        /// True for what is shown without `--verbose`.
        public var isError: Bool { self == .uncaught || self == .error }

        /// A console method's name (`warning`, `assert`, … as either browser reports it).
        public init(consoleLevel: String) {
            switch consoleLevel {
            case "error", "assert": self = .error
            case "warn", "warning": self = .warn
            case "info": self = .info
            case "debug", "trace": self = .debug
            default: self = .log
            }
        }
    }

    public var origin: Origin
    public var kind: Kind
    public var text: String
    /// `path:line` inside the extension, or empty.
    public var location: String

    public init(origin: Origin, kind: Kind, text: String, location: String = "") {
        self.origin = origin
        self.kind = kind
        self.text = text
        self.location = location
    }
}
