import SharedSuite
import Testing

@testable import BridgeCLI

@Suite struct KnownKeyNotesTests {
    /// A known key of a type the host will not read is written (the format allows it), with a
    /// warning on stderr that says what the host does and the `write` that stores it right.
    @Test func write_knownKeyOfTheWrongType_warnsAndWrites() throws {
        let h = Harness()
        #expect(h.run("write", "vocabulary", "-array", "blue", "blauw") == 0)
        #expect(
            try Suite(container: h.container).snapshot()["vocabulary"] == .array([.string("blue"), .string("blauw")]))
        let warning = h.err.first { $0.contains("warning:") } ?? ""
        #expect(warning.contains("vocabulary is a value of type array"))
        #expect(warning.contains("empty vocabulary"))
        #expect(
            warning.contains("write it as: ") && warning.hasSuffix(" write vocabulary -dict blue blauw"), "\(warning)")
        h.input = Array(#"{"vocabulary": {"blue": 1}}"#.utf8)
        #expect(h.run("import", "-") == 0)
        #expect(h.err.contains { $0.contains("warning: vocabulary is a dict with 1 of 1 entries") })
    }

    /// A vocabulary written while the group is off says how to turn it on; while on, nothing extra.
    @Test func write_vocabularyWhileOff_saysHowToEnable() {
        let h = Harness()
        #expect(h.run("write", "vocabulary", "-dict", "blue", "blauw") == 0)
        #expect(h.err.count == 1)
        #expect(h.err.first?.contains("the extension is off") == true)
        #expect(h.err.first?.hasSuffix(" enable") == true)
        #expect(h.run("write", "other", "x") == 0 && h.err.isEmpty)
        #expect(h.run("enable") == 0)
        #expect(h.run("write", "vocabulary", "-dict", "blue", "blauw") == 0)
        #expect(h.err.isEmpty)
    }
}
