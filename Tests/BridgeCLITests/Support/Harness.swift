import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeCLI

/// Runs the CLI in-process against a temporary container and captures output.
final class Harness {
    let tmp = TemporaryFolder()
    var out: [UInt8] = []
    var err: [String] = []
    var input: [UInt8] = []
    /// Whether the CLI sees a terminal on standard output.
    var terminal = false
    /// The environment the CLI sees; by default a container of its own, `EXTENSION_BRIDGE_CONTAINER`.
    lazy var environment = ["EXTENSION_BRIDGE_CONTAINER": tmp.path + "/c", "HOME": tmp.path]

    var stdout: String { String(decoding: out, as: UTF8.self) }

    @discardableResult
    func run(_ args: String...) -> Int32 { run(args) }

    @discardableResult
    func run(_ args: [String]) -> Int32 {
        out = []
        err = []
        var context = CLIContext(
            environment: Environment(environment),
            writeOut: { [unowned self] bytes in self.out += bytes },
            writeErr: { [unowned self] line in self.err.append(line) },
            readIn: { [unowned self] in self.input })
        context.outputIsTerminal = terminal
        return BridgeCLI.run(args, context: context)
    }

    var container: GroupContainer { GroupContainer(path: tmp.path + "/c") }

    deinit { tmp.remove() }
}
