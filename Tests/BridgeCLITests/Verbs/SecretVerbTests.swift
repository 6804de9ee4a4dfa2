import BridgeJSON
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeCLI

/// `secret set | get | delete | list` in process, over in-memory stores (one
/// per group); the real Secret Service is in `EndToEndTests/SecretsTests`.
@Suite struct SecretVerbTests {
    final class Run {
        let tmp = TemporaryFolder()
        var stores: [String: MemorySecretStore] = [:]
        var failure: SecretError?
        var out: [UInt8] = []
        var err: [String] = []
        var input: [UInt8] = []
        var stdout: String { String(decoding: out, as: UTF8.self) }

        @discardableResult
        func callAsFunction(_ args: String...) -> Int32 { self(args) }

        deinit { tmp.remove() }
    }

    @Test func setGetListDelete_roundTrip() throws {
        let run = Run()
        run.input = Array("tok-1\n".utf8)
        #expect(run("secret", "set", "api-token", "--shared") == 0)
        run.input = Array("private value\r\n".utf8)
        #expect(run("secret", "set", "db-password") == 0)
        #expect(run("secret", "get", "api-token") == 0)
        #expect(run.stdout == "tok-1\n")
        #expect(run("secret", "get", "db-password") == 0)
        #expect(run.stdout == "private value\n")
        #expect(run("secret", "list") == 0)
        #expect(run.stdout == "api-token\tshared\ndb-password\tprivate\n")
        #expect(run("--json", "secret", "list") == 0)
        #expect(
            try JSONParser.parse(run.out) == [
                ["name": "api-token", "shared": true], ["name": "db-password", "shared": false],
            ])
        // Set again without --shared: the mark goes.
        run.input = Array("tok-2".utf8)
        #expect(run("secret", "set", "api-token") == 0)
        #expect(run.stores[GroupContainer.defaultGroupID]?.secrets["api-token"]?.shared == false)
        #expect(run("secret", "delete", "api-token") == 0)
        #expect(run("secret", "get", "api-token") == 66)
        #expect(run("secret", "delete", "api-token") == 66)
        #expect(run.err.joined().contains("no secret named 'api-token'"))
    }

    @Test func set_fromAFile_andMissingFile() throws {
        let run = Run()
        try FileSystem.writeAtomically(run.tmp.path + "/token", utf8: "from-file\n")
        #expect(run("secret", "set", "t", "--file", run.tmp.path + "/token") == 0)
        #expect(run.stores[GroupContainer.defaultGroupID]?.secrets["t"]?.value == Array("from-file".utf8))
        #expect(run("secret", "set", "t", "--file", run.tmp.path + "/nope") == 66)
    }

    @Test func groups_neverSeeEachOthersSecrets() {
        let run = Run()
        run.input = Array("one".utf8)
        #expect(run("--suite", "group.one", "secret", "set", "k", "--shared") == 0)
        #expect(run("--suite", "group.two", "secret", "get", "k") == 66)
        #expect(run("--suite", "group.two", "secret", "list") == 0)
        #expect(run.stdout == "")
        #expect(run("--suite", "../x", "secret", "list") == 64)
    }

    @Test func badInput_givesUsageOrDataErrors_andStoresNothing() {
        let run = Run()
        run.input = Array("v".utf8)
        for name in ["../x", ".hidden", "a b", "x\u{1b}[2J", String(repeating: "n", count: 129)] {
            #expect(run("secret", "set", name) == 64, "\(name)")
            #expect(!run.err.joined().contains("\u{1b}"))
        }
        run.input = []
        #expect(run("secret", "set", "empty") == 65)
        run.input = [0xFF, 0xFE]
        #expect(run("secret", "set", "binary") == 65)
        run.input = [UInt8](repeating: 0x61, count: SecretName.maxValueBytes + 1)
        #expect(run("secret", "set", "huge") == 65)
        // The value never comes from the command line: no such operand.
        #expect(run("secret", "set", "k", "value") == 64)
        #expect(run.stores.values.allSatisfy { $0.secrets.isEmpty })
    }

    @Test func noSecretService_exits69_namingTheCodeAndWhatToDo() {
        let run = Run()
        run.failure = .unavailable("no session bus: install gnome-keyring")
        run.input = Array("v".utf8)
        for args in [["set", "k"], ["get", "k"], ["delete", "k"], ["list"]] {
            #expect(run(["secret"] + args) == 69, "\(args)")
            #expect(run.err.joined().contains("secrets_unavailable: no session bus: install gnome-keyring"))
        }
    }
}

extension SecretVerbTests.Run {
    @discardableResult
    func callAsFunction(_ args: [String]) -> Int32 {
        out = []
        err = []
        var context = CLIContext(
            environment: Environment(["EXTENSION_BRIDGE_CONTAINER": tmp.path + "/c", "HOME": tmp.path]),
            writeOut: { [unowned self] bytes in self.out += bytes },
            writeErr: { [unowned self] line in self.err.append(line) },
            readIn: { [unowned self] in self.input })
        context.makeSecrets = { [unowned self] group in
            let store = self.stores[group] ?? MemorySecretStore()
            store.failure = self.failure
            self.stores[group] = store
            return store
        }
        return BridgeCLI.run(args, context: context)
    }
}
