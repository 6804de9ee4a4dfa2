/// The command line split into global options, the verb, its flags and operands.
public struct Arguments: Equatable {
    public var suiteID: String?
    public var json = false
    public var help = false
    public var version = false
    /// The verb and sub-verb words and operands, in order.
    public var words: [String] = []
    /// Long flags after the verb (`--all`, `--dry-run`), with values where given.
    public var flags: [String: String] = [:]

    /// Flags that take a value.
    static let valued: Set<String> = [
        "--suite", "--browser", "--user-data-dir", "--host-name", "--extension-id", "--extension-dir", "--host-path",
        "--destdir",
    ]

    /// Parses `arguments` (without the program name).
    /// - Throws: `CLIError.usage` for an unknown option or a missing value.
    public init(_ arguments: [String]) throws(CLIError) {
        var i = 0
        var operandsOnly = false
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if operandsOnly || !arg.hasPrefix("--") || arg == "-" {
                words.append(arg)
                continue
            }
            if arg == "--" {
                operandsOnly = true
                continue
            }
            var name = arg
            var value: String?
            if let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq])
                value = String(arg[arg.index(after: eq)...])
            }
            switch name {
            case "--json": json = true
            case "--help": help = true
            case "--version": version = true
            default:
                if Arguments.valued.contains(name) {
                    if value == nil {
                        guard i < arguments.count else { throw .usage("\(name) needs a value") }
                        value = arguments[i]
                        i += 1
                    }
                    if name == "--suite" {
                        suiteID = value
                    } else if let existing = flags[name], name == "--extension-id" || name == "--browser" {
                        flags[name] = existing + "," + (value ?? "")
                    } else {
                        flags[name] = value
                    }
                } else if ["--all", "--dry-run", "--system"].contains(name) {
                    flags[name] = ""
                } else {
                    throw .usage("unknown option \(name)")
                }
            }
        }
    }

    /// True when the flag `name` was given.
    public func has(_ name: String) -> Bool { flags[name] != nil }
}
