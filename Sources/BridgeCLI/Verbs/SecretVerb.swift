import BridgeJSON
import BridgeSystem
import SharedSuite

/// `extension-bridge secret set NAME [--shared] [--file PATH] | get NAME | delete NAME | list`.
enum SecretVerb: Verb {
    static let shared = OptionSpec("--shared", help: "let the host's getSecret hand it to the extension")
    static let file = OptionSpec("--file", value: "PATH", help: "read the value from this file", completion: .file)
    static let spec = CommandSpec(
        ["secret"], section: "Secrets (the Keychain-sharing analog)",
        abstract: "the group's secrets in the user's Secret Service (macOS: Keychain)",
        discussion: """
            Secrets live in the user's Secret Service (GNOME Keyring, KWallet, KeePassXC)
            through secret-tool, under attributes naming the group, never in the suite or a
            file. The host's getSecret hands out only those set with --shared. Names: 1-128
            bytes of ASCII letters, digits, '.', '_', '-', not starting with '.' or '-'.
            Exit 69 (secrets_unavailable) when no Secret Service answers: nothing is stored
            instead.
            """,
        subcommands: [
            CommandSpec(
                ["secret", "set"], abstract: "store a secret read from stdin or --file, never from the command line",
                discussion: """
                    Reads the value from stdin (or --file); one trailing newline is dropped.
                    At a terminal it asks for one line and does not show what is typed
                    (Ctrl-C cancels, exit 130). The value must be 1 byte to 64 KiB of UTF-8.
                    Replaces an earlier value and its --shared mark.
                    """,
                options: [
                    shared, file,
                ],
                operands: [OperandSpec("NAME")]),
            CommandSpec(
                ["secret", "get"], abstract: "write a secret's value and a newline to stdout",
                operands: [OperandSpec("NAME")]),
            CommandSpec(["secret", "delete"], abstract: "remove a secret", operands: [OperandSpec("NAME")]),
            CommandSpec(["secret", "list"], abstract: "every secret's name and whether it is shared; never values"),
        ])

    static func run(_ invocation: Invocation, context: CLIContext) throws(CLIError) -> Int32 {
        let groupID = invocation.suiteID ?? GroupContainer.defaultGroupID
        try suite { () throws(SuiteError) in try GroupContainer.validate(groupID: groupID) }
        let commands = SecretCommands(context: context, store: context.makeSecrets(groupID), json: invocation.json)
        switch invocation.subcommand {
        case "set":
            try commands.set(
                invocation.operands[0], shared: invocation.has(shared), file: invocation[file])
        case "get": try commands.get(invocation.operands[0])
        case "delete": try commands.delete(invocation.operands[0])
        default: try commands.list()
        }
        return 0
    }
}

/// What each `secret` subcommand does, over the group's secret store.
private struct SecretCommands {
    let context: CLIContext
    let store: any SecretStore
    let json: Bool

    func set(_ name: String, shared: Bool, file: String?) throws(CLIError) {
        try secrets { () throws(SecretError) in try SecretName.validate(name) }
        var value: [UInt8]
        do throws(SystemError) {
            if let file {
                value = try FileSystem.readFile(file, limit: SecretName.maxValueBytes + 2)
            } else if let readHiddenLine = context.readHiddenLine {
                // Typed at a terminal: never shown, and Enter ends it.
                context.writeErr("Type the value of '\(name)' and press Enter (it is not shown):")
                value = try readHiddenLine(SecretName.maxValueBytes + 2)
            } else {
                value = try context.readIn()
            }
        } catch {
            if error.code == Errno.interrupted { throw CLIError(.interrupted, "cancelled: nothing was stored") }
            throw CLIError(
                error.code == Errno.notFound ? .missing : .io,
                "cannot read the secret from \(file ?? "standard input"): \(error)")
        }
        if value.last == UInt8(ascii: "\n") {
            value.removeLast()
            if value.last == UInt8(ascii: "\r") { value.removeLast() }
        }
        try secrets { () throws(SecretError) in
            try SecretName.validateValue(value)
            try store.store(value, named: name, shared: shared)
        }
    }

    func get(_ name: String) throws(CLIError) {
        let value = try secrets { () throws(SecretError) -> [UInt8] in
            try SecretName.validate(name)
            guard let value = try store.value(named: name, sharedOnly: false) else { throw .notFound(name) }
            return value
        }
        try context.out(value + [UInt8(ascii: "\n")])
    }

    func delete(_ name: String) throws(CLIError) {
        try secrets { () throws(SecretError) in
            try SecretName.validate(name)
            try store.delete(named: name)
        }
    }

    func list() throws(CLIError) {
        let entries = try secrets { () throws(SecretError) in try store.list() }
        if json {
            try context.print(
                JSONWriter.string(
                    .array(entries.map { .object(["name": .string($0.name), "shared": .bool($0.shared)]) })))
        } else {
            for entry in entries { try context.print("\(entry.name)\t\(entry.shared ? "shared" : "private")") }
        }
    }
}

/// Runs `body`, turning a secret error into a CLI error: 69 when no store
/// answered, 66 for a missing secret, 64 for a bad name, 65 for a bad value.
func secrets<T>(_ body: () throws(SecretError) -> T) throws(CLIError) -> T {
    do {
        return try body()
    } catch {
        switch error {
        case .unavailable(let why): throw CLIError(.unavailable, "secrets_unavailable: \(why)")
        case .notFound: throw CLIError(.missing, error.description)
        case .invalidName: throw CLIError(.usage, error.description)
        case .invalidValue: throw CLIError(.data, error.description)
        }
    }
}
