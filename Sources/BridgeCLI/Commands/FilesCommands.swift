import BridgeJSON
import SharedSuite

/// `files list | read NAME | delete NAME`.
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

    func delete(_ name: String) throws(CLIError) {
        try suite { () throws(SuiteError) in try files.delete(name) }
    }
}
