import SharedSuite

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
