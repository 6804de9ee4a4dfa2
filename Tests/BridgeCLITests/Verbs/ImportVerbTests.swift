import SharedSuite
import Testing

@testable import BridgeCLI

@Suite struct ImportVerbTests {
    @Test func exportImport_roundTrip_andImportRefusesNewerFormat() throws {
        let h = Harness()
        h.run("write", "n", "-int", "3")
        h.run("write", "raw", "-data", "AAE=")
        #expect(h.run("export") == 0)
        let exported = h.out
        h.run("delete", "n")
        h.input = exported
        #expect(h.run("import") == 0)
        #expect(try Suite(container: h.container).snapshot().values == ["n": .int(3), "raw": .data([0, 1])])
        h.input = Array("{\"formatVersion\":7,\"values\":{}}".utf8)
        #expect(h.run("import", "-") == 65)
        h.input = Array("{\"plain\":true}".utf8)
        #expect(h.run("import") == 0)
        #expect(try Suite(container: h.container).snapshot().values == ["plain": .bool(true)])
        #expect(h.run("import", h.tmp.path + "/missing.json") == 66)
    }
}
