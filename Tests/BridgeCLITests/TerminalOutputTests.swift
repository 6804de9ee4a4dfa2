import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeCLI

/// A page's title and text, and a file's name, cannot drive the
/// terminal or forge a record, in plain and `--json` output.
@Suite struct TerminalOutputTests {
    static let title = "Bank\u{1b}]0;owned\u{7}\u{1b}]52;c;cm0gLXJmIH4=\u{7}\u{9b}2J\u{7f}\u{202e}gnp.exe\u{2066}"
    static let content =
        "line one\n# Forged record\nhttps://bank.example\nsaved 2026-01-01T00:00:00.000Z by x\n\nhi\r\u{1b}[2K"

    func rawControls(_ text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { $0 != 0x0A && $0 != 0x09 && DisplayText.isControl($0) }
    }

    func harnessWithHostileItem() throws -> Harness {
        let h = Harness()
        try h.container.create()
        _ = try PendingQueue(container: h.container).append(
            url: "https://evil.example/\u{1b}[1A", title: TerminalOutputTests.title,
            content: TerminalOutputTests.content, source: "chrome-extension://x/")
        return h
    }

    @Test func queueList_plainAndJSON_escapeEveryControl() throws {
        let h = try harnessWithHostileItem()
        #expect(h.run("queue", "list") == 0)
        #expect(rawControls(h.stdout).isEmpty)
        #expect(h.stdout.split(separator: "\n").count == 1)
        #expect(h.run("queue", "list", "--json") == 0)
        #expect(rawControls(h.stdout).isEmpty)
        let line = try JSONParser.parse(String(h.stdout.dropLast()))
        #expect(line.objectValue?["title"]?.stringValue == TerminalOutputTests.title)
    }

    @Test func queueDrain_plain_cannotForgeARecord_andJSONKeepsTheText() throws {
        var h = try harnessWithHostileItem()
        #expect(h.run("queue", "drain") == 0)
        #expect(rawControls(h.stdout).isEmpty)
        #expect(h.stdout.split(separator: "\n").filter { $0.hasPrefix("# ") }.count == 1)
        #expect(h.stdout.contains("\n    # Forged record\n"))
        h = try harnessWithHostileItem()
        #expect(h.run("queue", "drain", "--json") == 0)
        #expect(rawControls(h.stdout).isEmpty)
        let item = try JSONParser.parse(String(h.stdout.dropLast()))
        #expect(item.objectValue?["content"]?.stringValue == TerminalOutputTests.content)
        #expect(item.objectValue?["title"]?.stringValue == TerminalOutputTests.title)
    }

    /// `files read` of a saved page's content file: exact bytes into a pipe,
    /// escaped when standard output is a terminal.
    @Test func filesRead_isExactIntoAPipe_andEscapedOnATerminal() throws {
        let h = Harness()
        let raw = Array("hi\u{1b}]52;c;eA==\u{7}\u{9b}\n".utf8)
        try SharedFiles(container: h.container).write("page.txt", raw)
        #expect(h.run("files", "read", "page.txt") == 0 && h.out == raw)
        h.terminal = true
        #expect(h.run("files", "read", "page.txt") == 0)
        #expect(h.stdout == "hi\\u001b]52;c;eA==\\u0007\\u009b\n")
    }

    /// What `--exec`'s CMD prints on stdout (an importer echoing a
    /// page title) is escaped on a terminal like its stderr, and exact into a
    /// pipe or a file.
    @Test func queueExec_cmdStdout_isEscapedOnATerminal_andExactIntoAPipe() throws {
        let cmd = "printf 'T\\033]0;owned\\007\\302\\233\\n'"
        for terminal in [true, false] {
            let h = try harnessWithHostileItem()
            h.terminal = terminal
            #expect(h.run("queue", "drain", "--exec", cmd) == 0, "\(h.err)")
            if terminal {
                #expect(h.stdout == "T\\u001b]0;owned\\u0007\\u009b\n")
            } else {
                #expect(h.out == Array("T\u{1b}]0;owned\u{7}\u{9b}\n".utf8))
            }
        }
    }

    @Test func readAndErrors_escapeControls() throws {
        let h = Harness()
        #expect(h.run("write", "k", TerminalOutputTests.title) == 0)
        #expect(h.run("read", "k") == 0 && rawControls(h.stdout).isEmpty)
        #expect(h.run("read") == 0 && rawControls(h.stdout).isEmpty)
        #expect(h.run("read", "\u{1b}]0;x\u{7}") == 66)
        #expect(h.err.allSatisfy { rawControls($0).isEmpty })
    }
}
