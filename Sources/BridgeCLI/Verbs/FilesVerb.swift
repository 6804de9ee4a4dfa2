import SharedSuite

/// `extension-bridge files list | read NAME | write NAME | delete NAME`.
enum FilesVerb: Verb {
    static let from = OptionSpec(
        "--from", value: "FILE", help: "read the bytes from FILE instead of stdin", completion: .file)
    static let spec = CommandSpec(
        ["files"], section: "Queue and files (what the extension saved)", abstract: "the group's shared files",
        discussion: "Names may not contain '/' or NUL or start with '.'.",
        subcommands: [
            CommandSpec(["files", "list"], abstract: "name and size of every shared file"),
            CommandSpec(["files", "read"], abstract: "write a shared file to stdout", operands: [OperandSpec("NAME")]),
            CommandSpec(
                ["files", "write"], abstract: "write a shared file from stdin or --from FILE (the seed's writeFile)",
                discussion: "Replaces any file of that name atomically: a reader sees the old file or the new one.",
                options: [from],
                operands: [OperandSpec("NAME")]),
            CommandSpec(["files", "delete"], abstract: "remove a shared file", operands: [OperandSpec("NAME")]),
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let files = SharedFiles(container: try invocation.container(context))
        let commands = FilesCommands(context: context, files: files, json: invocation.json)
        switch invocation.subcommand {
        case "list": try commands.list()
        case "read": try commands.read(invocation.operands[0])
        case "write": try commands.write(invocation.operands[0], from: invocation[from])
        default: try commands.delete(invocation.operands[0])
        }
        return 0
    }
}
