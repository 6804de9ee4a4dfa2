import BridgeJSON
import BridgeSystem
import SharedSuite

/// `files list | read NAME | write NAME | delete NAME`.
struct FilesCommands {
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
        let bytes: [UInt8]
        do throws(SystemError) {
            if let source { bytes = try FileSystem.readFile(source) } else { bytes = try context.readIn() }
        } catch {
            if error.isNotFound, let source { throw CLIError(.missing, "cannot read \(source): no such file") }
            throw CLIError(.io, "cannot read \(source ?? "standard input"): \(error)")
        }
        try suite { () throws(SuiteError) in try files.write(name, bytes) }
    }

    func delete(_ name: String) throws(CLIError) {
        try suite { () throws(SuiteError) in try files.delete(name) }
    }
}
