import BridgeJSON
import SharedSuite

/// `files list | read NAME | delete NAME`.
struct FilesCommands {
    let context: CLIContext
    let files: SharedFiles
    let json: Bool

    func run(_ operands: [String]) throws(CLIError) {
        guard let sub = operands.first else {
            throw .usage("files needs one of: list, read NAME, delete NAME", verb: "files")
        }
        let rest = Array(operands.dropFirst())
        switch (sub, rest.count) {
        case ("list", 0):
            let entries = try suite { () throws(SuiteError) in try files.list() }
            if json {
                try context.print(
                    JSONWriter.string(
                        .array(entries.map { .object(["name": .string($0.name), "size": .int($0.size)]) })))
            } else {
                for entry in entries { try context.print("\(entry.name)\t\(entry.size)") }
            }
        case ("read", 1):
            let bytes = try suite { () throws(SuiteError) in try files.read(rest[0]) }
            try context.out(bytes)
        case ("delete", 1):
            try suite { () throws(SuiteError) in try files.delete(rest[0]) }
        default:
            throw .usage("files needs one of: list, read NAME, delete NAME", verb: "files")
        }
    }
}
