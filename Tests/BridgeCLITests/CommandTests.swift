import BridgeJSON
import BridgeProtocol
import BridgeSystem
import Foundation
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

@Suite struct CommandTests {
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

    @Test func delete_removesKey_missingExits66() {
        let h = Harness()
        h.run("write", "k", "v")
        #expect(h.run("delete", "k") == 0)
        #expect(h.run("delete", "k") == 66)
    }

    @Test func enableDisable_setExtensionEnabled() throws {
        let h = Harness()
        #expect(h.run("enable") == 0)
        #expect(try Suite(container: h.container).snapshot().bool("extensionEnabled") == true)
        #expect(h.run("disable") == 0)
        #expect(try Suite(container: h.container).snapshot().bool("extensionEnabled") == false)
    }

    /// #15: the issue's sequence left the legacy reply false and getSettings true.
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

    @Test func queueDrain_handsOverEveryDistinctItem_collapsingOnlyExactDuplicates() throws {
        let h = Harness()
        let queue = PendingQueue(container: h.container)
        _ = try queue.append(url: "https://a/", title: "A", content: "first", source: "s")
        _ = try queue.append(url: "https://a/", title: "A again", content: "second", source: "s")
        _ = try queue.append(url: "https://a/", title: "A third", content: "first", source: "s")
        _ = try queue.append(url: "https://b/", title: nil, content: "third", source: "s")
        _ = try queue.append(url: "https://c/", title: "", content: "fourth", source: "s")
        #expect(h.run("queue", "count") == 0 && h.stdout == "5\n")
        #expect(h.run("queue", "drain", "--json") == 0)
        let lines = h.stdout.split(separator: "\n").map { try? JSONParser.parse(String($0)) }
        try #require(lines.count == 4)
        #expect(lines[0]?["content"] == "first")
        #expect(lines[1]?["content"] == "second")  // the same page saved again with other content
        #expect(lines[2]?["url"] == "https://b/")
        #expect(lines[2]?["title"] == "https://b/")  // a missing title is handed over as the URL
        #expect(lines[3]?["title"] == "https://c/")  // so is an empty one
        #expect(
            h.err.first == "drained 4 items, collapsed 1 exact duplicate (same URL and content; --all keeps them)")
        #expect(try queue.count() == 0)
    }

    @Test func queueListAndDrain_showTheKind() throws {
        let h = Harness()
        let queue = PendingQueue(container: h.container)
        let link = try queue.append(
            NewQueueItem(
                url: "https://b/", title: "B", content: "B", source: "s", kind: .link, pageURL: "https://a/")
        ).item
        #expect(h.run("queue", "list") == 0)
        #expect(h.stdout == "\(link.id)\t\(link.savedAt.iso8601)\tlink\thttps://b/\tB\n")
        #expect(h.run("queue", "list", "--json") == 0)
        #expect((try? JSONParser.parse(h.stdout))?["kind"] == "link")
        #expect(h.run("queue", "drain") == 0)
        #expect(h.stdout.contains("\nlink saved \(link.savedAt.iso8601) by s\n"))
        _ = try queue.append(
            NewQueueItem(
                url: "https://a/", title: nil, content: "words", source: "s", kind: .selection, pageURL: "https://a/"))
        #expect(h.run("queue", "drain", "--json") == 0)
        let item = try JSONParser.parse(h.stdout)
        #expect(item["kind"] == "selection" && item["pageUrl"] == "https://a/" && item["content"] == "words")
    }

    @Test func queueDrain_plainText_emptyTitleIsTheURL() throws {
        let h = Harness()
        _ = try PendingQueue(container: h.container).append(url: "https://e/", title: "", content: "c", source: "s")
        #expect(h.run("queue", "drain") == 0)
        #expect(h.stdout.hasPrefix("# https://e/\nhttps://e/\n"))
    }

    @Test func queueRemove_deletesReadableAndUnreadableItems_andRefusesUnknownIDs() throws {
        let h = Harness()
        let queue = PendingQueue(container: h.container)
        let item = try queue.append(url: "https://a/", title: nil, content: "1", source: "s")
        let broken = "9999999999998-0000000000000000-00000000"
        let newer = "9999999999999-0000000000000000-00000000"
        try FileSystem.writeAtomically(h.container.queuePath + "/\(broken).json", Array("{oops".utf8))
        try FileSystem.writeAtomically(
            h.container.queuePath + "/\(newer).json", Array("{\"formatVersion\":2}".utf8))
        #expect(h.run("queue", "list") == 0 && h.stdout.contains("\(broken)\tunreadable"))
        #expect(h.run("queue", "remove", broken, "nope") == 66)
        #expect(h.err.first?.contains("no queued item nope") == true)
        #expect(try queue.count() == 3)  // nothing removed when one id is unknown
        #expect(h.run("queue", "remove", "../suite") == 66)
        #expect(h.run("queue", "remove", broken, newer, "--json") == 0)
        #expect(try JSONParser.parse(h.out) == ["removed": [.string(broken), .string(newer)]])
        #expect(try queue.ids() == [item.id])
        #expect(h.run("queue", "remove") == 64)
    }

    @Test func queueDrainAll_keepsDuplicates_andKeepsUnknownFormats() throws {
        let h = Harness()
        let queue = PendingQueue(container: h.container)
        _ = try queue.append(url: "https://a/", title: nil, content: "1", source: "s")
        _ = try queue.append(url: "https://a/", title: nil, content: "2", source: "s")
        try FileSystem.writeAtomically(
            h.container.queuePath + "/9999999999999-0000000000000000-00000000.json", Array("{\"formatVersion\":2}".utf8)
        )
        #expect(h.run("queue", "drain", "--all", "--json") == 0)
        #expect(h.stdout.split(separator: "\n").count == 2)
        #expect(h.err.first?.contains("kept 1") == true)
        #expect(try queue.count() == 1)
    }

    @Test func queueDrain_outputFailure_removesNothing() throws {
        let h = Harness()
        let queue = PendingQueue(container: h.container)
        _ = try queue.append(url: "https://a/", title: nil, content: "1", source: "s")
        let context = CLIContext(
            environment: Environment(["EXTENSION_BRIDGE_CONTAINER": h.container.path]),
            writeOut: { _ throws(SystemError) in throw SystemError("write", "stdout", code: Errno.ioError) },
            writeErr: { _ in }, readIn: { [] })
        #expect(BridgeCLI.run(["queue", "drain"], context: context) == 74)
        #expect(try queue.count() == 1)
    }

    @Test func filesWrite_fromStdinOrFile_withTheReadNameRules() throws {
        let h = Harness()
        h.input = Array("from stdin\n".utf8)
        #expect(h.run("files", "write", "notes.txt") == 0)
        #expect(try SharedFiles(container: h.container).read("notes.txt") == Array("from stdin\n".utf8))
        let source = h.tmp.path + "/source.bin"
        try FileSystem.writeAtomically(source, [0, 1, 2, 255])
        #expect(h.run("files", "write", "notes.txt", "--from", source) == 0)
        #expect(h.run("files", "read", "notes.txt") == 0 && h.out == [0, 1, 2, 255])
        for bad in ["../x", ".hidden", "a/b", ""] {
            #expect(h.run("files", "write", bad, "--from", source) == 64)
        }
        #expect(h.run("files", "write", "y", "--from", h.tmp.path + "/missing") == 66)
        #expect(h.run("files", "read", "y") == 66)  // nothing written for a source that is missing
        #expect(h.run("files", "list") == 0 && h.stdout == "notes.txt\t4\n")
    }

    @Test func queueHandOverOptions_checked() {
        let h = Harness()
        #expect(h.run("queue", "drain", "--timeout", "5") == 64)
        #expect(h.err.first?.contains("--timeout goes with --exec") == true)
        #expect(h.run("queue", "drain", "--exec", "true", "--timeout", "0") == 64)
        #expect(h.run("queue", "drain", "--exec", "") == 64)
        #expect(h.run("queue", "watch", "--exec", "true", "--timeout", "x") == 64)
    }

    /// #13: a reader that goes away after the first item: that one is removed,
    /// every later one stays; #28: exit 141, the reader went away.
    @Test func queueDrain_stopsAtTheFirstWriteError_keepingTheRest() throws {
        let h = Harness()
        let queue = PendingQueue(container: h.container)
        for i in 0..<5 { _ = try queue.append(url: "https://a/\(i)", title: nil, content: "c", source: "s") }
        var writes = 0
        var errors: [String] = []
        let context = CLIContext(
            environment: Environment(["EXTENSION_BRIDGE_CONTAINER": h.container.path]),
            writeOut: { _ throws(SystemError) in
                writes += 1
                if writes > 1 { throw SystemError("write", "stdout", code: Errno.brokenPipe) }
            },
            writeErr: { errors.append($0) }, readIn: { [] })
        #expect(BridgeCLI.run(["queue", "drain", "--json"], context: context) == 141)
        #expect(writes == 2)
        #expect(try queue.count() == 4)
        #expect(errors.first?.contains("cannot write to standard output") == true)
    }

    @Test func files_listReadDelete_andBadNames() throws {
        let h = Harness()
        try SharedFiles(container: h.container).write("a.txt", Array("A".utf8))
        #expect(h.run("files", "list") == 0 && h.stdout == "a.txt\t1\n")
        #expect(h.run("files", "read", "a.txt") == 0 && h.stdout == "A")
        #expect(h.run("files", "read", "../etc/passwd") == 64)
        #expect(h.run("files", "delete", "a.txt") == 0)
        #expect(h.run("files", "read", "a.txt") == 66)
    }

    /// The commands trust the parser's operand counts (no second check of their own): a wrong
    /// count is refused by the parser, with exit 64, the verb's synopsis and nothing touched.
    @Test(arguments: [
        (["read", "a", "b"], "`read` takes [KEY]"), (["write", "k"], "`write` takes KEY [-TYPE] VALUE…"),
        (["write"], "`write` takes KEY"), (["delete"], "`delete` takes KEY"),
        (["delete", "a", "b"], "`delete` takes KEY"),
        (["export", "a", "b"], "`export` takes [FILE|-]"), (["import", "a", "b"], "`import` takes [FILE|-]"),
        (["queue", "remove"], "`queue remove` takes ID…"),
        (["new", "--host-name", "com.example.a", "--group", "group.a"], "`new` takes NAME"),
        (["new", "A", "B", "--host-name", "com.example.a", "--group", "group.a"], "`new` takes NAME"),
    ])
    func wrongOperandCount_isTheParsersRefusal(arguments: [String], message: String) throws {
        let h = Harness()
        #expect(h.run("write", "kept", "-int", "1") == 0)
        let project = h.tmp.path + "/project"
        #expect(h.run(arguments.first == "new" ? arguments + ["--dir", project] : arguments) == 64)
        #expect(h.err.count == 1 && h.err.first?.contains(message) == true, "\(h.err)")
        #expect(h.out.isEmpty)
        #expect(try Suite(container: h.container).snapshot().values == ["kept": .int(1)])
        #expect((try? FileSystem.status(project)) == nil)
    }

    @Test func usage_errorsExit64_andHelpWorksForEveryVerb() {
        let h = Harness()
        #expect(h.run() == 64)
        #expect(h.run("frobnicate") == 64)
        #expect(h.run("queue") == 64)
        #expect(h.run("--suite", "../x", "read") == 64)
        #expect(h.run("doctor", "--system", "--user-data-dir", h.tmp.path) == 64)
        #expect(h.run("install", "--destdir", "relative", "--browser", "chromium", "--dry-run") == 64)
        #expect(h.run("read", "--dry-run", "x") == 64)
        #expect(h.err.first?.contains("`read` does not take the option --dry-run") == true)
        for verb in [
            "read", "write", "delete", "export", "import", "enable", "disable", "repair", "queue", "files", "where",
            "install", "uninstall", "doctor", "help", "completions", "man",
        ] {
            #expect(h.run(verb, "--help") == 0)
            #expect(h.stdout.contains("extension-bridge \(verb)"))
        }
        #expect(h.run("--version") == 0 && h.stdout == "extension-bridge \(BridgeVersion.current)\n")
    }

    /// `run --config` registers the host for the extension bridge.json names and loads it: a
    /// bridge.json others can write is refused as `install --config` refuses it (77), before any build.
    @Test func run_refusesABridgeJSONOthersCanWrite() throws {
        let h = Harness()
        let config = h.tmp.path + "/bridge.json"
        try FileSystem.writeAtomically(config, utf8: "{}", permissions: 0o644)
        chmod(config, 0o666)
        #expect(h.run("run", "--config", config, "--headless") == 77)
        #expect(h.err.joined().contains(config + " is writable by every user"), "\(h.err)")
    }
}

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
        #expect(warning.contains("write vocabulary -dict blue blauw red rood"))
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
