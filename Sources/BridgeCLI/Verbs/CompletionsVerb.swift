/// `extension-bridge completions bash|zsh|fish`.
enum CompletionsVerb: Verb {
    static let shells = ["bash", "zsh", "fish"]

    static let spec = CommandSpec(
        ["completions"], section: "Shell", abstract: "print the completion script for a shell",
        discussion: """
            Prints a completion script made from the same declarations as --help.
            install.sh and the Debian package install them; by hand:
              bash: extension-bridge completions bash > ~/.local/share/bash-completion/completions/extension-bridge
              zsh:  extension-bridge completions zsh > DIR/_extension-bridge   (DIR on $fpath)
              fish: extension-bridge completions fish > ~/.config/fish/completions/extension-bridge.fish
            """,
        operands: [OperandSpec("SHELL", completion: .words(shells))])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let commands = invocation.commands
        switch invocation.operands[0] {
        case "bash": try context.print(CompletionScripts.bash(commands))
        case "zsh": try context.print(CompletionScripts.zsh(commands))
        case "fish": try context.print(CompletionScripts.fish(commands))
        default:
            throw .usage(
                "unknown shell '\(invocation.operands[0])'; choose one of: \(shells.joined(separator: ", "))",
                verb: "completions")
        }
        return 0
    }
}
