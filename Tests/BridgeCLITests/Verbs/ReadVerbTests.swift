import BridgeJSON
import Testing

@testable import BridgeCLI

@Suite struct ReadVerbTests {
    @Test func writeThenRead_everyType() throws {
        let h = Harness()
        #expect(h.run("write", "s", "hello world") == 0)
        #expect(h.run("write", "b", "-bool", "true") == 0)
        #expect(h.run("write", "d", "-date", "2026-01-02") == 0)
        #expect(h.run("write", "v", "-dict", "blue", "blauw") == 0)
        #expect(h.run("read", "s") == 0 && h.stdout == "hello world\n")
        #expect(h.run("read", "s", "--json") == 0 && h.stdout == "\"hello world\"\n")
        #expect(h.run("read", "b") == 0 && h.stdout == "true\n")
        #expect(h.run("read", "d") == 0 && h.stdout == "2026-01-02T00:00:00.000Z\n")
        #expect(h.run("read", "v", "--json") == 0 && h.stdout == "{\"blue\":\"blauw\"}\n")
        #expect(h.run("read", "--json") == 0)
        #expect(
            try JSONParser.parse(h.out)
                == ["s": "hello world", "b": true, "d": ["$date": "2026-01-02T00:00:00.000Z"], "v": ["blue": "blauw"]])
    }

    @Test func read_missingKey_exits66() {
        let h = Harness()
        #expect(h.run("read", "nope") == 66)
        #expect(h.err.first?.contains("'nope' does not exist") == true)
    }
}
