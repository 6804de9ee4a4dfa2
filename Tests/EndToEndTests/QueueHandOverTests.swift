import BridgeJSON
import Foundation
import TestSupport
import Testing

/// `queue drain --exec`, `queue watch` and `queue remove` over the built
/// binaries: an item leaves the queue only once its consumer has it.
@Suite(.serialized) struct QueueHandOverTests {
    static let origin = "chrome-extension://testext/"

    func environment(_ tmp: TemporaryFolder) -> [String: String] {
        [
            "EXTENSION_BRIDGE_CONTAINER": tmp.path + "/c", "EXTENSION_BRIDGE_ALLOWED_CALLERS": Self.origin,
            "HOME": tmp.path, "PATH": "/usr/bin:/bin",
        ]
    }

    /// Saves `contents` (URL, content) through a real host; returns the item ids.
    @discardableResult
    func save(_ items: [(String, String)], _ env: [String: String]) throws -> [String] {
        var input: [UInt8] = []
        for (url, content) in items {
            input += frameBytes(["action": "saveContent", "url": .string(url), "content": .string(content)])
        }
        let host = try runProcess(Binaries.host, [Self.origin], environment: env, input: input)
        let ids = try splitFrames(host.stdout).compactMap { $0["itemId"]?.stringValue }
        #expect(ids.count == items.count, "\(host.stderr)")
        return ids
    }

    func lines(_ path: String) -> [JSONValue] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
    }

    func count(_ env: [String: String]) throws -> String {
        try runProcess(Binaries.cli, ["queue", "count"], environment: env).outText
    }

    /// A consumer that fails after the first item keeps every other item.
    @Test func drainExec_removesOnlyWhatCMDTook() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        let ids = try save((0..<30).map { ("https://d/\($0)", "c\($0)") }, env)
        let got = tmp.path + "/got"
        // Takes one item, then fails on every later one (as a consumer that died).
        let cmd = "[ -e '\(got)' ] && exit 3; cat > '\(got)'"
        let drain = try runProcess(Binaries.cli, ["queue", "drain", "--exec", cmd], environment: env)
        #expect(drain.status == 123, "\(drain.stderr)")
        #expect(drain.stderr.contains("drained 1 item, kept 29 that CMD did not take"))
        #expect(drain.stderr.contains("CMD exited 3"))
        #expect(lines(got).map { $0["id"] } == [.string(ids[0])])
        #expect(try count(env) == "29\n")
        // The next drain hands the rest over.
        let again = try runProcess(Binaries.cli, ["queue", "drain", "--exec", "cat >> '\(got)'"], environment: env)
        #expect(again.status == 0)
        #expect(Set(lines(got).compactMap { $0["id"]?.stringValue }) == Set(ids))
        #expect(try count(env) == "0\n")
    }

    /// Three drains at once hand every item over exactly once.
    @Test func concurrentDrains_handEachItemOverOnce() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        let ids = try save((0..<300).map { ("https://c/\($0)", "c") }, env)
        let got = tmp.path + "/got"
        var drains: [Process] = []
        for _ in 0..<3 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Binaries.cli)
            // A line under PIPE_BUF appended with O_APPEND lands whole.
            p.arguments = ["queue", "drain", "--exec", "cat >> '\(got)'"]
            p.environment = env
            p.standardError = FileHandle.nullDevice
            try p.run()
            drains.append(p)
        }
        for p in drains {
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
        }
        let handed = lines(got).compactMap { $0["id"]?.stringValue }
        #expect(handed.count == 300)
        #expect(Set(handed) == Set(ids))
        #expect(try count(env) == "0\n")
    }

    /// A second save of the same page with other content is handed over;
    /// only an exact duplicate is collapsed, and counted.
    @Test func drain_keepsSamePageWithOtherContent() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        try save([("https://p/", "v1"), ("https://p/", "v2"), ("https://p/", "v1")], env)
        let drain = try runProcess(Binaries.cli, ["queue", "drain", "--json"], environment: env)
        #expect(drain.status == 0)
        let contents = drain.outText.split(separator: "\n").compactMap {
            try? JSONParser.parse(String($0))["content"]?.stringValue
        }
        #expect(contents == ["v1", "v2"])
        #expect(drain.stderr.contains("drained 2 items, collapsed 1 exact duplicate"))
        #expect(try count(env) == "0\n")
    }

    /// A CMD that hangs is killed after --timeout and its item stays; one that
    /// never reads a large item neither blocks the drain nor loses the item.
    @Test func drainExec_hangingCMDKilled_unreadInputDoesNotBlock() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        try save([("https://h/", "small")], env)
        let started = Date()
        let hung = try runProcess(
            Binaries.cli, ["queue", "drain", "--exec", "sleep 30", "--timeout", "1"], environment: env)
        #expect(hung.status == 123)
        #expect(hung.stderr.contains("did not finish within 1 s"))
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(try count(env) == "1\n")
        #expect(try runProcess(Binaries.cli, ["queue", "remove"], environment: env).status == 64)
        #expect(try count(env) == "1\n")
        try save([("https://big/", String(repeating: "x", count: 600_000))], env)
        // Sleeps without reading: the 600 kB item cannot fit in the pipe.
        let unread = try runProcess(
            Binaries.cli, ["queue", "drain", "--exec", "sleep 0.2; exit 4", "--timeout", "10"], environment: env)
        #expect(unread.status == 123)
        #expect(try count(env) == "2\n")
    }

    /// SIGTERM during `drain --exec`: CMD gets SIGTERM, the drain stops, nothing is lost.
    @Test func drainExec_terminated_keepsEveryItem() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        try save([("https://t/1", "1"), ("https://t/2", "2")], env)
        let marker = tmp.path + "/started"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Binaries.cli)
        p.arguments = ["queue", "drain", "--exec", "touch '\(marker)'; sleep 30"]
        p.environment = env
        let err = Pipe()
        p.standardError = err
        try p.run()
        #expect(eventually { FileManager.default.fileExists(atPath: marker) })
        let started = Date()
        kill(p.processIdentifier, SIGTERM)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(p.terminationStatus == 130, "\(errors)")
        #expect(errors.contains("stopped by a signal"))
        #expect(try count(env) == "2\n")
    }

    /// An unreadable item can be removed by id after `queue list --json`.
    @Test func queueRemove_unreadableItem() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        let ids = try save([("https://r/", "ok")], env)
        let broken = "0000000000001-0000000000000000-00000000"
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: tmp.path + "/c/queue/\(broken).json"))
        let list = try runProcess(Binaries.cli, ["queue", "list", "--json"], environment: env)
        let entries = list.outText.split(separator: "\n").compactMap { try? JSONParser.parse(String($0)) }
        #expect(entries.first?["id"] == .string(broken))
        #expect(entries.first?["unreadable"] != nil)
        let remove = try runProcess(Binaries.cli, ["queue", "remove", broken], environment: env)
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(try runProcess(Binaries.cli, ["queue", "list"], environment: env).outText.hasPrefix(ids[0]))
        #expect(try count(env) == "1\n")
    }

    /// A FIFO or a symlink planted in the queue: drain neither hangs nor follows
    /// it, keeps and reports both, and `queue remove` deletes the entries only.
    @Test func queueFIFOAndSymlink_reportedKeptRemovable() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        let queue = tmp.path + "/c/queue"
        try FileManager.default.createDirectory(atPath: queue, withIntermediateDirectories: true)
        #expect(mkfifo(queue + "/0000000000001-0000000000000000-00000001.json", 0o600) == 0)
        let target = tmp.path + "/target"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(
            atPath: queue + "/0000000000001-0000000000000000-00000002.json", withDestinationPath: target)
        let drain = try runProcess(Binaries.cli, ["queue", "drain", "--exec", "cat"], environment: env)
        #expect(drain.status == 0)
        #expect(drain.stderr.contains("kept 2 that cannot be read"))
        let remove = try runProcess(
            Binaries.cli,
            ["queue", "remove", "0000000000001-0000000000000000-00000001", "0000000000001-0000000000000000-00000002"],
            environment: env)
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(try count(env) == "0\n")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me")
    }

    /// `queue drain ARGS | /bin/sh -c READER`, two real processes joined by
    /// a pipe; returns the drain's exit status and stderr.
    func drainInto(_ reader: String, _ arguments: [String], _ env: [String: String]) throws -> (Int32, String) {
        let pipe = Pipe()
        let drain = Process()
        drain.executableURL = URL(fileURLWithPath: Binaries.cli)
        drain.arguments = ["queue", "drain"] + arguments
        drain.environment = env
        drain.standardOutput = pipe
        let err = Pipe()
        drain.standardError = err
        let importer = Process()
        importer.executableURL = URL(fileURLWithPath: "/bin/sh")
        importer.arguments = ["-c", reader]
        importer.environment = env
        importer.standardInput = pipe
        try importer.run()
        try drain.run()
        // Only the two processes hold the pipe: the reader's end closes when it exits.
        try pipe.fileHandleForReading.close()
        try pipe.fileHandleForWriting.close()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        drain.waitUntilExit()
        importer.waitUntilExit()
        return (drain.terminationStatus, errors)
    }

    /// `queue drain --json | importer` where the importer reads one
    /// line and exits: the drain removes only that item, keeps every item it
    /// never read (29 of 30) and exits 141, "the reader went away". `head`
    /// reads a whole block, so a drain that wrote ahead would lose it all.
    @Test func drainIntoAPipe_readerThatReadsOneLine_keepsEveryUnreadItem() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        let ids = try save((0..<30).map { ("https://p/\($0)", "c\($0)") }, env)
        let got = tmp.path + "/got"
        let (status, errors) = try drainInto("head -n 1 > '\(got)'", ["--json"], env)
        #expect(status == 141, "\(errors)")
        #expect(errors.contains("the reader went away"), "\(errors)")
        let order = ids.sorted()  // the drain's order
        #expect(lines(got).map { $0["id"] } == [.string(order[0])])
        let left = try runProcess(Binaries.cli, ["queue", "list", "--json"], environment: env).outText
        let waiting = left.split(separator: "\n").compactMap { try? JSONParser.parse(String($0))["id"]?.stringValue }
        #expect(waiting == Array(order.dropFirst()))
        // A reader that reads 20 bytes of the first line and closes: it stays too.
        let (half, _) = try drainInto("dd bs=20 count=1 of=/dev/null 2>/dev/null", ["--json"], env)
        #expect(half == 141)
        #expect(try count(env) == "29\n")
    }

    /// A reader that reads everything (slowly, too) gets every item,
    /// all are removed, exit 0.
    @Test func drainIntoAPipe_readerThatReadsAll_removesAll() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        let ids = try save((0..<30).map { ("https://a/\($0)", "c\($0)") }, env)
        let got = tmp.path + "/got"
        let (status, errors) = try drainInto("cat > '\(got)'", ["--json"], env)
        #expect(status == 0, "\(errors)")
        #expect(lines(got).compactMap { $0["id"]?.stringValue } == ids.sorted())
        #expect(try count(env) == "0\n")
        // Slowly: one line every 20 ms.
        let more = try save((0..<5).map { ("https://s/\($0)", "c\($0)") }, env)
        let slow = "while read -r line; do sleep 0.02; printf '%s\\n' \"$line\" >> '\(got)'; done"
        let (slowStatus, slowErrors) = try drainInto(slow, ["--json"], env)
        #expect(slowStatus == 0, "\(slowErrors)")
        #expect(lines(got).compactMap { $0["id"]?.stringValue } == ids.sorted() + more.sorted())
        #expect(try count(env) == "0\n")
    }

    /// Undo while a watch hands the item over. `removeItem` answers
    /// `item_being_handed_over` (never "Item removed" for an item the
    /// importer then gets), and `queue remove` waits for the hand-over and
    /// says the item left instead of "removed".
    @Test func removeItem_whileAWatchHandsItOver_saysSoAndTheImporterHasIt() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        let got = tmp.path + "/got"
        let marker = tmp.path + "/handing"
        let watch = try Watch(["--exec", "touch '\(marker)'; sleep 2; cat >> '\(got)'"], environment: env)
        let host = try HostPort(environment: env)
        let saved = try host.request(["action": "saveContent", "url": "https://u/", "content": "undo me"])
        let id = try #require(saved?["itemId"]?.stringValue)
        #expect(eventually { FileManager.default.fileExists(atPath: marker) })
        let undo = try host.request(["action": "removeItem", "itemId": .string(id)])
        #expect(undo?["code"] == .string("item_being_handed_over"), "\(String(describing: undo))")
        #expect(undo?["status"] == .string("error"))
        let remove = try runProcess(Binaries.cli, ["queue", "remove", id], environment: env)
        #expect(remove.status == 66, "\(remove.stderr)")
        #expect(remove.stderr.contains("left the queue while this waited"), "\(remove.stderr)")
        #expect(lines(got).map { $0["id"] } == [.string(id)])
        // Once it is handed over: not found, as before.
        let after = try host.request(["action": "removeItem", "itemId": .string(id)])
        #expect(after?["code"] == .string("item_not_found"))
        try host.closeInput()
        #expect(host.waitForExit() == 0)
        let (status, _, errors) = watch.stop()
        #expect(status == 0, "\(errors)")
    }

    /// `files write` from stdin and from a file, over the binary.
    @Test func filesWrite_roundTrips() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        let write = try runProcess(
            Binaries.cli, ["files", "write", "note.txt"], environment: env, input: Array("héllo\n".utf8))
        #expect(write.status == 0, "\(write.stderr)")
        #expect(try runProcess(Binaries.cli, ["files", "read", "note.txt"], environment: env).outText == "héllo\n")
        try Data([0, 255]).write(to: URL(fileURLWithPath: tmp.path + "/bin"))
        #expect(
            try runProcess(Binaries.cli, ["files", "write", "b", "--from", tmp.path + "/bin"], environment: env).status
                == 0)
        #expect(try runProcess(Binaries.cli, ["files", "read", "b"], environment: env).stdout == [0, 255])
        #expect(try runProcess(Binaries.cli, ["files", "write", "../b"], environment: env).status == 64)
    }

    /// A running `queue watch`, its stderr collected and its stdout read as
    /// it comes (an importer that keeps up: into a pipe, a watch removes an
    /// item only once it has been read).
    final class Watch {
        let process = Process()
        let err = Pipe()
        let out = Pipe()
        private let output = Locked(Data())
        private var reader: Thread?

        init(_ arguments: [String], environment: [String: String]) throws {
            ignoreBrokenPipes()
            process.executableURL = URL(fileURLWithPath: Binaries.cli)
            process.arguments = ["queue", "watch"] + arguments
            process.environment = environment
            process.standardError = err
            process.standardOutput = out
            try process.run()
            let (handle, output) = (out.fileHandleForReading, output)
            let thread = Thread { output.set(handle.readDataToEndOfFile()) }
            thread.start()
            reader = thread
        }

        /// Sends SIGTERM and returns the exit status and stdout.
        func stop() -> (Int32, String, String) {
            kill(process.processIdentifier, SIGTERM)
            while reader?.isFinished == false { usleep(1000) }
            let output = String(decoding: self.output.value, as: UTF8.self)
            let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, output, errors)
        }
    }

    /// utime + stime of `pid` in clock ticks (/proc/PID/stat fields 14 and 15).
    func cpuTicks(_ pid: Int32) -> Int {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, so utime (14) and stime (15) are at 11 and 12.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
        return user + system
    }

    /// Polls `condition` for up to 10 s.
    func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try condition() { return true }
            usleep(10_000)
        }
        return false
    }

    /// Watch started before the container exists hands each item to CMD
    /// as it arrives; an item CMD fails on stays; SIGTERM ends it with 0.
    @Test func watchExec_fromAnEmptyHome_failingCMDKeepsTheItem() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        var env = environment(tmp)
        env["EXTENSION_BRIDGE_CONTAINER"] = nil  // the real default location under an empty HOME
        let got = tmp.path + "/got"
        let cmd = "read -r line; case \"$line\" in *FAIL*) exit 5;; esac; printf '%s\\n' \"$line\" >> '\(got)'"
        let watch = try Watch(["--exec", cmd], environment: env)
        usleep(200_000)
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/.local/share"))
        let first = try save([("https://w/1", "one")], env)
        #expect(eventually { lines(got).count == 1 })
        try save([("https://w/2", "FAIL")], env)
        let third = try save([("https://w/3", "three")], env)
        #expect(eventually { lines(got).count == 2 })
        // Waiting, it sleeps: at most a few clock ticks of CPU in a second (a re-arm loop spun at 100%).
        let before = cpuTicks(watch.process.processIdentifier)
        usleep(1_000_000)
        let idle = cpuTicks(watch.process.processIdentifier) - before
        #expect(idle <= 10, "the idle watch used \(idle) ticks of CPU in 1 s")
        let (status, _, errors) = watch.stop()
        #expect(status == 0, "\(errors)")
        #expect(errors.contains("kept, CMD exited 5"))
        #expect(lines(got).compactMap { $0["id"]?.stringValue } == first + third)
        #expect(try count(env) == "1\n")
    }

    /// A watch collapses exact duplicates only among items waiting
    /// together; a later, separate save of the same page with the same
    /// content is handed over, however long the watch has run.
    @Test func watchExec_laterSaveOfTheSamePage_isHandedOverNotCollapsed() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        let got = tmp.path + "/got"
        try save([("https://s/", "same"), ("https://s/", "same")], env)  // waiting together
        let watch = try Watch(["--exec", "cat >> '\(got)'"], environment: env)
        #expect(try eventually { try lines(got).count == 1 && count(env) == "0\n" })
        let later = try save([("https://s/", "same")], env)
        // The line reaches the file before the watch removes the item: wait for both before stopping it.
        #expect(try eventually { try lines(got).count == 2 && count(env) == "0\n" })
        let (status, _, errors) = watch.stop()
        #expect(status == 0, "\(errors)")
        #expect(lines(got).last?["id"] == later.first.map(JSONValue.string))
        #expect(errors.components(separatedBy: "collapsed").count == 2, "\(errors)")
        #expect(try count(env) == "0\n")
    }

    /// The fallback (no inotify) prints each item as a JSON line on stdout.
    @Test func watchJSON_pollingFallback_printsAndRemoves() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        var env = environment(tmp)
        env["EXTENSION_BRIDGE_WATCH"] = "poll"
        try save([("https://f/0", "waiting")], env)
        let watch = try Watch(["--json"], environment: env)
        try save([("https://f/1", "new")], env)
        #expect(try eventually { try count(env) == "0\n" })
        let (status, output, errors) = watch.stop()
        #expect(status == 0)
        #expect(errors.contains("(looking every 250 ms)"))
        let urls = output.split(separator: "\n").compactMap { try? JSONParser.parse(String($0))["url"]?.stringValue }
        #expect(urls == ["https://f/0", "https://f/1"])
    }

    /// The systemd user unit in manifests/systemd verifies, with its `%h`
    /// paths pointed at the built CLI and a real importer.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")))
    func systemdUnit_verifies() throws {
        let analyze = "/usr/bin/systemd-analyze"
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let name = "extension-bridge-queue-watch.service"
        let unit = try String(
            contentsOf: root.appendingPathComponent("manifests/systemd/" + name), encoding: .utf8)
        #expect(unit.contains("ExecStart=%h/.local/bin/extension-bridge queue watch --exec "))
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let rendered = unit.replacingOccurrences(of: "%h/.local/bin/extension-bridge", with: Binaries.cli)
            .replacingOccurrences(of: "%h/.local/bin/import-saved-item", with: "/bin/cat")
        try rendered.write(toFile: tmp.path + "/" + name, atomically: true, encoding: .utf8)
        let verify = try runProcess(
            analyze, ["verify", "--man=no", tmp.path + "/" + name], environment: ["PATH": "/usr/bin:/bin"])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stderr.isEmpty, "\(verify.stderr)")
    }
}
