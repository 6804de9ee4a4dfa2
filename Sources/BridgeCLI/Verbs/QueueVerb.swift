import BridgeProtocol
import SharedSuite

/// `extension-bridge queue list | count | drain | watch | remove`.
enum QueueVerb: Verb {
    static let all = OptionSpec(
        "--all", help: "hand exact duplicates (same URL and content) over too instead of collapsing them")
    static let exec = OptionSpec(
        "--exec", value: "CMD",
        help: "run `/bin/sh -c CMD` per item with its JSON line on stdin; remove the item only when CMD exits 0",
        completion: .commands)
    static let timeout = OptionSpec(
        "--timeout", value: "SECONDS", help: "with --exec: kill CMD after this long, keeping the item (default 300)")
    static let handOverOptions = [all, exec, timeout]

    static let spec = CommandSpec(
        ["queue"], section: "Queue and files (what the extension saved)", abstract: "the queue of saved items",
        subcommands: [
            CommandSpec(
                ["queue", "list"], abstract: "one line per waiting item (JSON lines with --json, without content)"),
            CommandSpec(["queue", "count"], abstract: "how many items wait"),
            CommandSpec(
                ["queue", "drain"], abstract: "hand every item over on stdout or to CMD, then remove it",
                discussion: """
                    Hands every item over, oldest first, and removes each only once it is
                    handed over: written whole to stdout (JSON lines with --json) and, into
                    a pipe, read out of it by the reader; or, with --exec, taken by CMD
                    (exit 0). A reader that goes away stops the drain with exit 141, and
                    every item it did not read stays. Stops at the first write error (74).
                    Exact duplicates (same URL and same content) among the items waiting
                    together are collapsed and counted unless --all. Items of a newer
                    format, unreadable ones and those CMD failed on stay and are reported on
                    stderr; exit 123 when CMD failed for any. With --exec, SIGINT or SIGTERM
                    stops the drain between items (exit 130). Drains and watches take turns
                    per item: each item is handed over once.
                    """,
                options: handOverOptions),
            CommandSpec(
                ["queue", "watch"], abstract: "hand each item over as it arrives, until SIGINT or SIGTERM",
                discussion: """
                    Hands over what waits, then each new item as the host saves it, the way
                    drain does (stdout, or CMD with --exec). Waits with inotify on Linux and
                    looks every 250 ms where that is unavailable (or with
                    EXTENSION_BRIDGE_WATCH=poll); the group container may be created later.
                    An item CMD fails on stays and is not tried again until the next watch
                    or drain. Exits 0 on SIGINT or SIGTERM.
                    """,
                options: handOverOptions),
            CommandSpec(
                ["queue", "remove"], abstract: "delete items by id (as `queue list` shows them), even unreadable ones",
                operands: [OperandSpec("ID", variadic: true)]),
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let container = try invocation.container(context)
        let queue = PendingQueue(container: container, limits: QueueLimits(environment: context.environment))
        let commands = QueueCommands(context: context, queue: queue, json: invocation.json)
        // Of a group that does not exist, every answer says why it is empty (watch waits for one made
        // later, so a mistyped --suite would wait for ever unsaid); after the options are checked.
        let noteIfMissing = { SuiteCommands.noteIfMissing(container, context) }
        switch invocation.subcommand {
        case "list":
            noteIfMissing()
            try commands.list()
        case "count":
            noteIfMissing()
            try commands.count()
        case "remove":
            noteIfMissing()
            try commands.remove(invocation.operands)
        case "watch":
            let delivery = try delivery(invocation)
            noteIfMissing()
            try commands.watch(
                keepDuplicates: invocation.has(all), delivery: delivery,
                notifications: context.environment[EnvironmentVariable.watch] != "poll")
        default:
            let delivery = try delivery(invocation)
            noteIfMissing()
            return try commands.drain(keepDuplicates: invocation.has(all), delivery: delivery)
        }
        return 0
    }

    /// stdout, or CMD with its timeout.
    static func delivery(_ invocation: Invocation) throws(CLIError) -> QueueHandOver.Delivery {
        let verb = invocation.command?.name
        guard let command = invocation[exec] else {
            if invocation.has(timeout) { throw .usage("--timeout goes with --exec", verb: verb) }
            return .print(json: invocation.json)
        }
        if command.isEmpty { throw .usage("--exec needs a command", verb: verb) }
        var seconds = 300
        if let text = invocation[timeout] {
            guard let value = Int(text), value > 0, value <= 86_400 else {
                throw .usage("--timeout takes whole seconds from 1 to 86400, not '\(text)'", verb: verb)
            }
            seconds = value
        }
        return .exec(command: command, timeoutMilliseconds: Int64(seconds) * 1000)
    }
}
