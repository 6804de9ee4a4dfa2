/// The host's configuration file, written by `extension-bridge install`
/// beside the host binary and read by the host the browser starts.
///
/// The format is lines of `key = value`; `#` starts a comment, blank lines
/// are ignored, `allow` may repeat:
///
/// ```
/// # extension-bridge-host configuration: written by `extension-bridge install`.
/// format = 1
/// group = group.org.extensionbridge.shared
/// log = warn
/// allow = chrome-extension://honlgoealnaplikdeeidpcknncfcnfmo/
/// allow = extension-bridge@extensionbridge.org
/// ```
///
/// Unknown keys are kept out and reported, so an older host reads a newer
/// file's keys it knows; a newer `format` is refused whole.
public struct HostConfiguration: Equatable, Sendable {
    /// The format this code writes and the newest it reads.
    public static let formatVersion = 1

    /// The group whose suite the host serves; nil: the default group.
    public var group: String?
    /// One of `logLevels`; nil: the default (`warn`).
    public var logLevel: String?
    /// The levels `log` takes, quietest first (the host reads `warning` as `warn` too).
    public static let logLevels = ["error", "warn", "info", "debug"]

    /// Why the host must not take its callers from a file (this configuration, or the older
    /// allowlist) whose owner and permission bits these are, or nil: it belongs to another user
    /// (not root), or its group or every user may write it. Whoever may write it chooses which
    /// extensions are served and which group they reach; install writes it 0644. The host applies
    /// this rule, and doctor the same one (each folder above the file it holds to `PathTrust`).
    public static func trustProblem(owner: UInt32, permissions: Int, userID: UInt32) -> String? {
        if owner != userID && owner != 0 { return "belongs to another user (uid \(owner))" }
        if permissions & 0o002 != 0 { return "is writable by every user" }
        if permissions & 0o020 != 0 { return "is writable by its group" }
        return nil
    }
    /// The callers the host serves: Chromium origins and Firefox add-on ids.
    public var allowedCallers: [String]

    public init(group: String? = nil, logLevel: String? = nil, allowedCallers: [String] = []) {
        self.group = group
        self.logLevel = logLevel
        self.allowedCallers = allowedCallers
    }

    /// The file's name beside a host executable called `executableName`.
    public static func fileName(forExecutable executableName: String) -> String { executableName + ".conf" }

    /// The allowlist file that hosts before the configuration file read
    /// (one caller a line). Still read when no configuration file exists, so
    /// earlier installs keep working.
    public static let legacyAllowlistFileName = "extension-bridge-host.allowed"

    /// Why a configuration file was refused.
    public enum ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        case newerFormat(found: Int)
        case badLine(number: Int, reason: String)

        public var description: String {
            switch self {
            case .newerFormat(let found):
                return "format \(found) is newer than this host reads (\(HostConfiguration.formatVersion)); "
                    + "install the matching extension-bridge-host or run `extension-bridge install` again"
            case .badLine(let number, let reason): return "line \(number): \(reason)"
            }
        }
    }

    /// Reads a configuration file's text.
    /// - Returns: the configuration and the keys it did not know.
    /// - Throws: `ParseError` for a newer format or a line that is not `key = value`.
    public static func parse(_ text: String) throws(ParseError) -> (HostConfiguration, unknownKeys: [String]) {
        var configuration = HostConfiguration()
        var unknown: [String] = []
        var number = 0
        for rawLine in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let trimmed = trim(line)
            if trimmed.isEmpty { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw .badLine(number: number, reason: "expected key = value")
            }
            let key = trim(trimmed[..<equals])
            let value = String(trim(trimmed[trimmed.index(after: equals)...]))
            switch key {
            case "format":
                guard let found = Int(value) else { throw .badLine(number: number, reason: "format is not a number") }
                if found > formatVersion { throw .newerFormat(found: found) }
            case "group": configuration.group = value.isEmpty ? nil : value
            case "log": configuration.logLevel = value.isEmpty ? nil : value
            case "allow":
                for caller in AllowList.parse(value) where !configuration.allowedCallers.contains(caller) {
                    configuration.allowedCallers.append(caller)
                }
            default: unknown.append(String(key))
            }
        }
        return (configuration, unknown)
    }

    /// A value the file cannot hold as itself: a line
    /// break in it would add lines (an `allow` the caller never named), `#`
    /// would cut it, a `,` in a caller would make two callers.
    public struct UnsafeValue: Error, Equatable, Sendable, CustomStringConvertible {
        public var key: String
        public var value: String

        /// `value` for a message: unsafe scalars as `\u{…}`, at most 200 scalars.
        public static func shown(_ value: String) -> String {
            var shown = ""
            for scalar in value.unicodeScalars.prefix(200) {
                if HostConfiguration.isUnsafe(scalar) {
                    shown += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    shown.unicodeScalars.append(scalar)
                }
            }
            return value.unicodeScalars.count > 200 ? shown + "…" : shown
        }

        public var description: String {
            "the host configuration cannot hold the \(key) '\(UnsafeValue.shown(value))': no control characters, line or "
                + "paragraph separators, bidi controls, '#', blanks at either end\(key == "allow" ? " or ','" : ""); "
                + "and not empty"
        }
    }

    /// C0 (tab, CR and LF too), DEL, C1, U+2028/U+2029 and the bidi controls.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Checks one value as the file would hold it.
    public static func validate(key: String, value: String) throws(UnsafeValue) {
        let ok =
            !value.isEmpty && value.utf8.count <= 4096 && !value.unicodeScalars.contains(where: isUnsafe)
            && !value.contains("#") && !(key == "allow" && value.contains(","))
            && value.first != " " && value.last != " "
        if !ok { throw UnsafeValue(key: key, value: value) }
    }

    /// The file's text as `extension-bridge install` writes it, as `parse` reads it back.
    /// - Throws: `UnsafeValue` for a value the file cannot hold as itself:
    ///   nothing is escaped into another meaning, the writer refuses it whole.
    public var text: String {
        get throws(UnsafeValue) { try text(writtenBy: "written by `extension-bridge install`") }
    }

    /// The file's text with a first comment line that says who wrote it (`origin`, one line without
    /// `#`): a reader deciding whether to edit the file learns what would overwrite it.
    /// - Throws: `UnsafeValue` as `text` does, also for an `origin` that is not one plain line.
    public func text(writtenBy origin: String) throws(UnsafeValue) -> String {
        try HostConfiguration.validate(key: "origin", value: origin)
        var out = "# extension-bridge-host configuration: \(origin).\n"
        out += "format = \(HostConfiguration.formatVersion)\n"
        if let group {
            try HostConfiguration.validate(key: "group", value: group)
            out += "group = \(group)\n"
        }
        if let logLevel {
            try HostConfiguration.validate(key: "log", value: logLevel)
            out += "log = \(logLevel)\n"
        }
        for caller in allowedCallers {
            try HostConfiguration.validate(key: "allow", value: caller)
            out += "allow = \(caller)\n"
        }
        return out
    }

    private static func trim(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" || first == "\r" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text = text.dropLast() }
        return text
    }
}
