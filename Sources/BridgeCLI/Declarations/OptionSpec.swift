import SharedSuite

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
