/// A command line parsed against the declarations: which command, its options and operands.
public struct Invocation: Equatable {
    /// The command chosen, nil when none was named (`extension-bridge --help`).
    public var command: CommandSpec?
    public var suiteID: String?
    public var json = false
    public var help = false
    public var version = false
    /// The command's options given, with their values ("" for flags); repeated values joined with commas.
    public var flags: [String: String] = [:]
    public var operands: [String] = []
    /// Every command the line was parsed against: what help, man and completions list, so those
    /// verbs need not reach back to the list they are part of.
    public let commands: [CommandSpec]

    /// The value given for `option` ("" for a flag), nil when it was not given. Verbs read options
    /// through their declarations (`invocation[InstallVerbOptions.destination]`), never by a string of their own.
    public subscript(option: OptionSpec) -> String? { flags[option.name] }

    /// True when `option` was given.
    public func has(_ option: OptionSpec) -> Bool { flags[option.name] != nil }

    /// Parses `arguments` (without the program name) against `commands`.
    ///
    /// Options may come before or after the command words; `--` ends options;
    /// `-` and words with one dash (`-dict`) are operands. An option no command
    /// declares, or one the chosen command does not take, is a usage error that
    /// names the command; so is a wrong number of operands.
    /// - Throws: `CLIError` of kind `.usage`.
    public init(_ arguments: [String], commands: [CommandSpec]) throws(CLIError) {
        self.commands = commands
        let (pending, words) = try Self.split(arguments, commands: commands)
        let (command, rest) = try Self.command(
            of: words, among: commands, help: pending.contains { $0.name == "--help" })
        self.command = command
        operands = Array(rest)
        try apply(pending)
        if let command, !help, !version {
            let range = command.operandRange
            if operands.count < range.minimum || operands.count > (range.maximum ?? Int.max) {
                let expected =
                    command.operands.isEmpty
                    ? "takes no operands" : "takes \(command.operands.map(\.synopsis).joined(separator: " "))"
                throw .usage("`\(command.name)` \(expected)", verb: command.name)
            }
        }
    }

    /// Separates the options (with their values, `-h` read as `--help`) from the words, checking
    /// each option's name and whether it takes a value.
    private static func split(
        _ arguments: [String], commands: [CommandSpec]
    ) throws(CLIError) -> (pending: [(name: String, value: String?)], words: [String]) {
        var pending: [(name: String, value: String?)] = []
        var words: [String] = []
        var operandsOnly = false
        var i = 0
        let allOptions = commands.flatMap(\.flattened).flatMap(\.options) + GlobalOptions.all
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            // `-h` is `--help`, as git, cargo and apt take it (after `--` it is an operand).
            if !operandsOnly, arg == "-h" {
                pending.append(("--help", nil))
                continue
            }
            if operandsOnly || !arg.hasPrefix("--") {
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
            // The value's arity comes from any declaration of the name: the same name takes a
            // value everywhere or nowhere (checked by a test).
            guard let spec = allOptions.first(where: { $0.name == name }) else {
                throw .usage(Suggestion.message("unknown option \(name)", for: name, among: allOptions.map(\.name)))
            }
            if spec.valueName != nil, value == nil {
                guard i < arguments.count else { throw .usage("\(name) needs a value (\(spec.synopsis))") }
                value = arguments[i]
                i += 1
            } else if spec.valueName == nil, value != nil {
                throw .usage("\(name) takes no value")
            }
            pending.append((name, value))
        }
        return (pending, words)
    }

    /// The command: the first word, then a subcommand while the command has them; with the words after it.
    private static func command(
        of words: [String], among commands: [CommandSpec], help: Bool
    ) throws(CLIError) -> (CommandSpec?, ArraySlice<String>) {
        var rest = words[...]
        var chosen: CommandSpec?
        if let verb = rest.first {
            guard var command = commands.first(where: { $0.path == [verb] }) else {
                throw .usage(
                    Suggestion.message("unknown command '\(verb)'", for: verb, among: commands.compactMap(\.path.first))
                )
            }
            rest = rest.dropFirst()
            while !command.subcommands.isEmpty {
                let names = command.subcommands.compactMap(\.path.last)
                guard let word = rest.first else {
                    if help { break }
                    throw .usage(
                        "\(command.name) needs one of: \(names.joined(separator: ", "))", verb: command.name)
                }
                guard let sub = command.subcommand(word) else {
                    throw .usage(
                        Suggestion.message("unknown \(command.name) command '\(word)'", for: word, among: names),
                        verb: command.name)
                }
                command = sub
                rest = rest.dropFirst()
            }
            chosen = command
        }
        return (chosen, rest)
    }

    /// Records the options given: the global ones in their fields, the command's own in `flags`.
    private mutating func apply(_ pending: [(name: String, value: String?)]) throws(CLIError) {
        for (name, value) in pending {
            switch name {
            case "--suite": suiteID = value
            case "--json": json = true
            case "--help": help = true
            case "--version": version = true
            default:
                guard let command, let spec = command.option(name) else {
                    let who = command.map { "`\($0.name)`" } ?? "extension-bridge without a command"
                    let own = (command?.options ?? []).map(\.name) + GlobalOptions.all.map(\.name)
                    throw .usage(
                        Suggestion.message("\(who) does not take the option \(name)", for: name, among: own),
                        verb: command?.name)
                }
                if let existing = flags[name], spec.repeats {
                    flags[name] = existing + "," + (value ?? "")
                } else {
                    flags[name] = value ?? ""
                }
            }
        }
    }
}
