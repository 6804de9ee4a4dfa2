import BridgeSystem
import SharedSuite
import Testing

@testable import BridgeCLI

@Suite struct WriteVerbTests {
    /// `defaults`' order is KEY then -TYPE: the error says so and gives the line in that order.
    @Test func typeBeforeKey_saysKeyComesFirst() throws {
        let h = Harness()
        #expect(h.run("write", "-dict", "vocabulary", "blue", "blauw") == 64)
        #expect(
            h.err.first?.contains("KEY comes before -TYPE: extension-bridge write vocabulary -dict blue blauw") == true)
        #expect(try Suite(container: h.container).snapshot().values.isEmpty)
    }

    /// A mistyped type word is named as one, with the words there are.
    @Test func unknownType_isNamed_withTheTypes() {
        let h = Harness()
        #expect(h.run("write", "v", "-TYPO", "x") == 64)
        let message = h.err.first ?? ""
        #expect(message.contains("unknown type -TYPO"))
        #expect(message.contains("known: " + ValueParser.typeFlags.joined(separator: " ")))
        #expect(h.run("write", "v", "-dcit", "a", "b") == 64)
        #expect(h.err.first?.contains("unknown type -dcit (did you mean `-dict`?)") == true)
        #expect(h.run("write", "v", "-5") == 0)
        #expect(h.run("write", "v", "-double", "2.5") == 0)
    }

    /// Values over the kernel's argument limit (~128 KiB) go through --from FILE or stdin, typed
    /// with the same words; one trailing newline is dropped.
    @Test func from_fileAndStdin_takeValuesLargerThanAnArgument() throws {
        let h = Harness()
        let entries = (0..<12_000).map { "\"word\($0)\": \"replacement number \($0)\"" }
        let json = "{" + entries.joined(separator: ", ") + "}\n"
        #expect(json.utf8.count > 300 << 10)
        let file = h.tmp.path + "/words.json"
        try FileSystem.writeAtomically(file, Array(json.utf8), permissions: 0o600)
        #expect(h.run("write", "vocabulary", "-json", "--from", file) == 0, "\(h.err)")
        let vocabulary = try Suite(container: h.container).snapshot().dictionary("vocabulary")
        #expect(vocabulary?.count == 12_000)
        #expect(vocabulary?["word11999"] == .string("replacement number 11999"))
        let text = String(repeating: "long text ", count: 40_000)
        h.input = Array((text + "\n").utf8)
        #expect(h.run("write", "note", "--from", "-") == 0)
        #expect(try Suite(container: h.container).snapshot()["note"] == .string(text))
        h.input = Array("-5\n".utf8)
        #expect(h.run("write", "n", "-int", "--from", "-") == 0)
        #expect(try Suite(container: h.container).snapshot()["n"] == .int(-5))
        // A file saved with Windows line ends: its last "\r\n" is the line break, not part of the value.
        h.input = Array("7\r\n".utf8)
        #expect(h.run("write", "n", "-int", "--from", "-") == 0, "\(h.err)")
        #expect(try Suite(container: h.container).snapshot()["n"] == .int(7))
        #expect(h.run("write", "v", "-dict", "--from", file) == 64)
        #expect(h.err.first?.contains("-json --from") == true)
        #expect(h.run("write", "v", "x", "--from", file) == 64)
        #expect(h.run("write", "v", "--from", h.tmp.path + "/none") == 66)
    }

    /// Writing one enabled key used to leave the legacy reply false and getSettings true.
    @Test func write_eitherEnabledKey_keepsTheOtherInStep() throws {
        let h = Harness()
        #expect(h.run("write", "user_defaults_suite_enabled", "-bool", "false") == 0)
        #expect(h.run("write", "extensionEnabled", "-bool", "true") == 0)
        var snapshot = try Suite(container: h.container).snapshot()
        #expect(snapshot["user_defaults_suite_enabled"] == .bool(true))
        #expect(SuiteKeys.isEnabled(snapshot))
        #expect(h.run("write", "user_defaults_suite_enabled", "NO") == 0)
        snapshot = try Suite(container: h.container).snapshot()
        #expect(snapshot["extensionEnabled"] == .bool(false))
        #expect(snapshot["user_defaults_suite_enabled"] == .string("NO"))  // the value as written
        #expect(!SuiteKeys.isEnabled(snapshot))
    }

    /// Values the reader would reject are refused at input (exit 65)
    /// and the suite stays as it was, readable by every action.
    @Test(arguments: [
        ["-date", "9999-12-31T23:59:60Z"], ["-date", "0001-01-01T00:30:00+01:00"],
        ["-json", String(repeating: "[", count: 511) + String(repeating: "]", count: 511)],
    ])
    func write_valueThatCannotReadBack_exits65AndChangesNothing(value: [String]) throws {
        let h = Harness()
        h.run("write", "k", "v")
        let before = try FileSystem.readFile(h.container.suitePath)
        #expect(h.run(["write", "x"] + value) == 65)
        #expect(try FileSystem.readFile(h.container.suitePath) == before)
        #expect(h.run("read", "k") == 0 && h.stdout == "v\n")
    }
}
