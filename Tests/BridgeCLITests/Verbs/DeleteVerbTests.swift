import Testing

@testable import BridgeCLI

@Suite struct DeleteVerbTests {
    @Test func delete_removesKey_missingExits66() {
        let h = Harness()
        h.run("write", "k", "v")
        #expect(h.run("delete", "k") == 0)
        #expect(h.run("delete", "k") == 66)
    }
}
