import BridgeJSON
import BridgeSystem
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
        let container = try invocation.container(context)
        let files = SharedFiles(container: container)
        let commands = FilesCommands(context: context, files: files, json: invocation.json)
        if invocation.subcommand != "write" { SuiteCommands.noteIfMissing(container, context) }
        switch invocation.subcommand {
        case "list": try commands.list()
        case "read": try commands.read(invocation.operands[0])
        case "write": try commands.write(invocation.operands[0], from: invocation[from])
        default: try commands.delete(invocation.operands[0])
        }
        return 0
    }
}

/// What each `files` subcommand does, over the group's shared files.
private struct FilesCommands {
    let context: CLIContext
    let files: SharedFiles
    let json: Bool

    func list() throws(CLIError) {
        let entries = try suite { () throws(SuiteError) in try files.list() }
        if json {
            try context.print(
                JSONWriter.string(.array(entries.map { .object(["name": .string($0.name), "size": .int($0.size)]) })))
        } else {
            for entry in entries { try context.print("\(DisplayText.escaped(entry.name))\t\(entry.size)") }
        }
    }

    func read(_ name: String) throws(CLIError) {
        let bytes = try suite { () throws(SuiteError) in try files.read(name) }
        try context.out(bytes)
    }

    /// Writes stdin, or the file `source`, as the shared file `name`. The name
    /// is checked before any input is read.
    func write(_ name: String, from source: String?) throws(CLIError) {
        try suite { () throws(SuiteError) in try SharedFiles.validate(name: name) }
        let bytes = try context.readInput(source ?? "-")
        try suite { () throws(SuiteError) in try files.write(name, bytes) }
    }

    func delete(_ name: String) throws(CLIError) {
        try suite { () throws(SuiteError) in try files.delete(name) }
    }
}
