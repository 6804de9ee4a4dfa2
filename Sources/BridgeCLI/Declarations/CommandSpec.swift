import SharedSuite

/// What the shell should offer for a value or an operand.
public enum ValueCompletion: Equatable, Sendable {
    case none
    case file
    case directory
    /// One of these words.
    case words([String])
    /// A command's name.
    case commands
}

/// One option a command takes: `--name` alone, or `--name VALUE`.
public struct OptionSpec: Equatable, Sendable {
    /// The option with its dashes, `--browser`.
    public var name: String
    /// The value's placeholder (`NAME`, `DIR`), or nil for a flag.
    public var valueName: String?
    /// Given more than once, the values are joined with commas (`--browser a --browser b`).
    public var repeats: Bool
    public var help: String
    public var completion: ValueCompletion

    public init(
        _ name: String, value: String? = nil, repeats: Bool = false, help: String,
        completion: ValueCompletion = .none
    ) {
        self.name = name
        self.valueName = value
        self.repeats = repeats
        self.help = help
        self.completion = completion
    }

    /// `--name VALUE` or `--name`.
    public var synopsis: String { valueName.map { "\(name) \($0)" } ?? name }
}

/// One operand, in order.
public struct OperandSpec: Equatable, Sendable {
    public var name: String
    public var optional: Bool
    /// Takes every remaining word (`VALUE…`).
    public var variadic: Bool
    public var completion: ValueCompletion

    public init(_ name: String, optional: Bool = false, variadic: Bool = false, completion: ValueCompletion = .none) {
        self.name = name
        self.optional = optional
        self.variadic = variadic
        self.completion = completion
    }

    public var synopsis: String {
        let word = variadic ? name + "…" : name
        return optional ? "[\(word)]" : word
    }
}

/// A command's declaration: its name, options, operands or subcommands, and
/// help. Usage errors, `--help`, the overview, shell completions and the man
/// page are all made from these, so they cannot disagree.
public struct CommandSpec: Equatable, Sendable {
    /// The words that select it: `["queue", "drain"]`.
    public var path: [String]
    /// The overview's group (`Suite`, `Browsers`, …).
    public var section: String
    /// One line.
    public var abstract: String
    /// Paragraphs after the usage line.
    public var discussion: String
    public var options: [OptionSpec]
    public var operands: [OperandSpec]
    public var subcommands: [CommandSpec]

    public init(
        _ path: [String], section: String = "", abstract: String, discussion: String = "", options: [OptionSpec] = [],
        operands: [OperandSpec] = [], subcommands: [CommandSpec] = []
    ) {
        self.path = path
        self.section = section
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.operands = operands
        self.subcommands = subcommands
    }

    /// `queue drain`.
    public var name: String { path.joined(separator: " ") }

    /// The option named `name` (its dashes included).
    public func option(_ name: String) -> OptionSpec? { options.first { $0.name == name } }

    /// The subcommand named `word`.
    public func subcommand(_ word: String) -> CommandSpec? { subcommands.first { $0.path.last == word } }

    /// Fewest and most operands (nil: no limit).
    public var operandRange: (minimum: Int, maximum: Int?) {
        (
            operands.filter { !$0.optional && !$0.variadic }.count,
            operands.contains(where: \.variadic) ? nil : operands.count
        )
    }

    /// `extension-bridge queue drain [--all]` plus operands or `list | count | drain`.
    public var synopsis: String {
        var words = ["extension-bridge"] + path
        if !subcommands.isEmpty {
            words.append(subcommands.compactMap(\.path.last).joined(separator: " | "))
        }
        words += options.map { "[\($0.synopsis)]" }
        words += operands.map(\.synopsis)
        return words.joined(separator: " ")
    }

    /// This command and every subcommand below it, depth first.
    public var flattened: [CommandSpec] { [self] + subcommands.flatMap(\.flattened) }
}

/// Options every command takes.
public enum GlobalOptions {
    public static let all: [OptionSpec] = [
        OptionSpec("--suite", value: "ID", help: "the group id (default \(GroupContainer.defaultGroupID))"),
        OptionSpec("--json", help: "machine-readable output"),
        OptionSpec("--help", help: "help for the command"),
        OptionSpec("--version", help: "print the version"),
    ]

    public static func named(_ name: String) -> OptionSpec? { all.first { $0.name == name } }
}
