import BridgeSystem
import Testing

@testable import BridgeCLI

@Suite struct RepairVerbTests {
    @Test func corruptSuite_readExits65_repairMovesItAside() throws {
        let h = Harness()
        h.run("write", "k", "v")
        try FileSystem.writeAtomically(h.container.suitePath, Array("{oops".utf8))
        #expect(h.run("read") == 65)
        #expect(h.err.first?.contains(h.container.suitePath) == true)
        #expect(h.err.first?.contains("extension-bridge repair") == true)
        #expect(h.run("write", "k", "w") == 65)
        #expect(h.run("repair") == 0)
        #expect(h.stdout.contains("suite.json.corrupt-"))
        #expect(h.run("read", "--json") == 0 && h.stdout == "{}\n")
    }
}
