import Foundation
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
        #expect(h.err.first?.contains("cannot import -: it has formatVersion 7") == true, "\(h.err)")
        // A bad document is the input's problem: no `repair` (which works on the suite) is offered.
        h.input = Array("{\"formatVersion\":\"1\",\"values\":{}}".utf8)
        #expect(h.run("import", "-") == 65)
        #expect(h.err.first?.contains("cannot import -: formatVersion") == true, "\(h.err)")
        #expect(h.err.first?.contains("repair") == false)
        // A document cut short (no values) would have emptied the suite; an unknown member would be dropped.
        h.run("write", "keep", "important")
        for text in [#"{"formatVersion":1}"#, #"{"formatVersion":1,"values":{},"extra":2}"#] {
            h.input = Array(text.utf8)
            #expect(h.run("import", "-") == 65, "\(text)")
        }
        #expect(try Suite(container: h.container).snapshot()["keep"] == .string("important"))
        h.input = Array("{\"plain\":true}".utf8)
        #expect(h.run("import") == 0)
        #expect(try Suite(container: h.container).snapshot().values == ["plain": .bool(true)])
        #expect(h.run("import", h.tmp.path + "/missing.json") == 66)
        // A FIFO (or /dev/null, <(…)) is not read by name: the refusal says to use -.
        #expect(mkfifo(h.tmp.path + "/fifo", 0o600) == 0)
        #expect(h.run("import", h.tmp.path + "/fifo") == 65)
        #expect(h.err.first?.contains("is not a regular file") == true && h.err.first?.contains("give -") == true)
    }

    /// An integer beyond 64 bits (an account or snowflake id) was imported as the nearest double,
    /// its digits lost without a word: refused (65) naming where, and nothing is imported.
    @Test func anIntegerBeyond64Bits_isRefused_notRounded() throws {
        let h = Harness()
        h.run("write", "kept", "v")
        h.input = Array(#"{"b":123456789012345678901234567890,"c":1}"#.utf8)
        #expect(h.run("import", "-") == 65)
        #expect(h.err.first?.contains("at byte 5: the integer does not fit 64 bits") == true, "\(h.err)")
        #expect(try Suite(container: h.container).snapshot().values == ["kept": .string("v")])
        #expect(h.run("write", "n", "-json", "99999999999999999999") == 65)
        #expect(h.err.first?.contains("cannot read the -json value: at byte 0: the integer") == true, "\(h.err)")
        #expect(h.run("write", "n", "-json", "9007199254740993") == 0)
        #expect(try Suite(container: h.container).snapshot().values["n"] == .int(9_007_199_254_740_993))
        // A key given twice (a typo in a long hand-written vocabulary lost the first translation).
        h.input = Array(#"{"vocabulary":{"blue":"blauw","blue":"bleu"}}"#.utf8)
        #expect(h.run("import", "-") == 65)
        #expect(h.err.first?.contains("the key 'blue' is given twice in one object") == true, "\(h.err)")
        #expect(h.run("write", "k", "-json", "[1e-400]") == 65)
    }
}
