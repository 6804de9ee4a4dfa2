/// Shell completion scripts made from the declarations (`extension-bridge completions SHELL`).
enum CompletionScripts {
    /// What one command offers: its words (as the scripts accumulate them), options and operands.
    struct Entry {
        /// "" for the top level, `read`, `queue drain`.
        var key: String
        var options: [OptionSpec]
        /// Subcommands, or the verbs at the top level.
        var words: [String]
        var operands: [OperandSpec]
    }

    static func entries(_ commands: [CommandSpec]) -> [Entry] {
        var out = [Entry(key: "", options: [], words: commands.map(\.name), operands: [])]
        for command in commands.flatMap(\.flattened) {
            let operands = command.operands.map { operand in
                var operand = operand
                if operand.completion == .commands { operand.completion = .words(commands.map(\.name)) }
                return operand
            }
            out.append(
                Entry(
                    key: command.name, options: command.options, words: command.subcommands.compactMap(\.path.last),
                    operands: operands))
        }
        return out
    }

    /// Every option that takes a value, each once, with how to complete it.
    static func valued(_ commands: [CommandSpec]) -> [OptionSpec] {
        var seen = Set<String>()
        return (GlobalOptions.all + commands.flatMap(\.flattened).flatMap(\.options)).filter {
            $0.valueName != nil && seen.insert($0.name).inserted
        }
    }

    /// The commands with subcommands: the next word picks one.
    static func parents(_ commands: [CommandSpec]) -> [String] {
        commands.filter { !$0.subcommands.isEmpty }.map(\.name)
    }

    /// What operand number `index` completes to.
    static func operandCompletion(_ operands: [OperandSpec], _ index: Int) -> ValueCompletion {
        if index < operands.count { return operands[index].completion }
        return operands.last(where: \.variadic)?.completion ?? .none
    }
}
