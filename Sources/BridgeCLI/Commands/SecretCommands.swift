import BridgeJSON
import BridgeSystem
import SharedSuite

/// `secret set | get | delete | list`.
struct SecretCommands {
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
