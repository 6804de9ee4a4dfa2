import SharedSuite

/// `extension-bridge queue list | count | drain [--all]`.
enum QueueVerb: Verb {
    static let spec = CommandSpec(
        ["queue"], section: "Queue and files (what the extension saved)", abstract: "the queue of saved items",
        subcommands: [
            CommandSpec(
                ["queue", "list"], abstract: "one line per waiting item (JSON lines with --json, without content)"),
            CommandSpec(["queue", "count"], abstract: "how many items wait"),
            CommandSpec(
                ["queue", "drain"], abstract: "hand every item over on stdout, then remove it",
                discussion: """
                    Hands every item over on stdout (JSON lines with --json), then removes
                    it; skips items whose URL was already handed over in this drain unless
                    --all. Items of a newer format or unreadable ones are kept and reported
                    on stderr.
                    """,
                options: [OptionSpec("--all", help: "keep items whose URL was already handed over in this drain")]),
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let container = try invocation.container(context)
        let queue = PendingQueue(container: container, limits: QueueLimits(environment: context.environment))
        let commands = QueueCommands(context: context, queue: queue, json: invocation.json)
        switch invocation.subcommand {
        case "list": try commands.list()
        case "count": try commands.count()
        default: try commands.drain(keepDuplicates: invocation.has("--all"))
        }
        return 0
    }
}
