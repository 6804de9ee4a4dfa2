import SharedSuite

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
            // A variadic operand that is not optional (`ID…`) takes at least one word.
            operands.filter { !$0.optional }.count,
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
