import BridgeJSON
import BridgeSystem
import SharedSuite
import Testing

@testable import BridgeCLI

@Suite struct QueueVerbTests {
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

    /// A reader that goes away after the first item: that one is removed,
    /// every later one stays; exit 141, the reader went away.
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

    @Test func queueHandOverOptions_checked() {
        let h = Harness()
        #expect(h.run("queue", "drain", "--timeout", "5") == 64)
        #expect(h.err.first?.contains("--timeout goes with --exec") == true)
        #expect(h.run("queue", "drain", "--exec", "true", "--timeout", "0") == 64)
        #expect(h.run("queue", "drain", "--exec", "") == 64)
        #expect(h.run("queue", "watch", "--exec", "true", "--timeout", "x") == 64)
    }
}
