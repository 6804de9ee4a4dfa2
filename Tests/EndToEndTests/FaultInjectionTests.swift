import BridgeJSON
import Foundation
import TestSupport
import Testing

/// Faults a browser, a disk or a person can cause: each must end in a clear
/// error with nothing already saved lost.
@Suite(.serialized) struct FaultInjectionTests {
    static let origin = "chrome-extension://testext/"

    func environment(_ container: String, _ extra: [String: String] = [:]) -> [String: String] {
        var env = [
            "EXTENSION_BRIDGE_CONTAINER": container, "EXTENSION_BRIDGE_ALLOWED_CALLERS": Self.origin, "HOME": "/tmp",
        ]
        env.merge(extra) { $1 }
        return env
    }

    @Test func browserThatStopsReading_hostGivesUpAfterTheWriteTimeout() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp.path + "/c", ["EXTENSION_BRIDGE_WRITE_TIMEOUT_MS": "300"])
        var words: [String] = []
        for i in 0..<3_000 { words += ["w\(i)", "replacement"] }
        #expect(try runProcess(Binaries.cli, ["write", "vocabulary", "-dict"] + words, environment: env).status == 0)
        let port = try HostPort(environment: env)
        // Each reply is ~60 KB; nobody reads them, so the pipe fills. All 20
        // requests go in one write: the host may give up (and close its end)
        // before a slow sender (TSan) could write them one by one.
        var requests: [UInt8] = []
        for i in 0..<20 { requests += frameBytes(["action": "getContent", "url": "https://a/", "id": .int(i)]) }
        try port.sendRaw(requests)
        let started = Date()
        let status = port.waitForExit()
        #expect(status == 1)
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(port.stderrText.contains("stopped reading"))
    }

    @Test func sigtermWhileBusy_finishesTheRequestInHand_andWritesWholeFrames() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp.path + "/c")
        let port = try HostPort(environment: env)
        let sender = Thread {
            for i in 0..<3_000 {
                try? port.send([
                    "action": "saveContent", "url": .string("https://t/\(i)"), "content": "x", "id": .int(i),
                ])
            }
        }
        sender.start()
        var acknowledged = Set<String>()
        while acknowledged.count < 100, let reply = try port.receive(timeout: 10) {
            if let id = reply["itemId"]?.stringValue { acknowledged.insert(id) }
        }
        kill(port.process.processIdentifier, SIGTERM)
        // Everything after the signal must still be whole frames.
        while let reply = try port.receive(timeout: 5) {
            if let id = reply["itemId"]?.stringValue { acknowledged.insert(id) }
        }
        #expect(port.waitForExit() == 0, "\(port.ending)")
        let list = try runProcess(Binaries.cli, ["queue", "list", "--json"], environment: env)
        let ids = Set(
            list.outText.split(separator: "\n").compactMap { try? JSONParser.parse(String($0))["id"]?.stringValue })
        #expect(acknowledged.isSubset(of: ids))
        #expect(!list.outText.contains("unreadable"))
        let incoming = (try? FileManager.default.contentsOfDirectory(atPath: tmp.path + "/c/queue/.incoming")) ?? []
        #expect(incoming.isEmpty)
    }

    @Test func fullDisk_givesClearErrors_andKeepsTheOldSuiteAndItems() throws {
        let tmp = TemporaryFolder()
        defer {
            _ = try? runProcess("/bin/umount", [tmp.path + "/disk"], environment: [:])
            tmp.remove()
        }
        try FileManager.default.createDirectory(atPath: tmp.path + "/disk", withIntermediateDirectories: true)
        let mounted = try runProcess(
            "/bin/mount", ["-t", "tmpfs", "-o", "size=192k", "tmpfs", tmp.path + "/disk"], environment: [:])
        try #require(mounted.status == 0, "mounting a small tmpfs needs root: \(mounted.stderr)")
        let env = environment(tmp.path + "/disk/c")
        #expect(try runProcess(Binaries.cli, ["write", "keep", "me"], environment: env).status == 0)
        let saved = try runProcess(
            Binaries.host, [Self.origin], environment: env,
            input: frameBytes(["action": "saveContent", "url": "https://a/", "content": "first"]))
        #expect(try splitFrames(saved.stdout).first?["status"] == "success")
        // Fill the disk, then try to write more.
        let big = String(repeating: "x", count: 150_000)
        let host = try runProcess(
            Binaries.host, [Self.origin], environment: env,
            input: frameBytes(["action": "saveContent", "url": "https://b/", "content": .string(big)])
                + frameBytes(["action": "saveContent", "url": "https://c/", "content": .string(big)])
                + frameBytes(["action": "getSettings", "id": "after"]))
        let replies = try splitFrames(host.stdout)
        #expect(
            replies.contains {
                $0["code"] == "storage_error" && ($0["message"]?.stringValue ?? "").contains("No space")
            })
        #expect(replies.last?["id"] == "after")
        let cli = try runProcess(Binaries.cli, ["write", "big", String(big.prefix(100_000))], environment: env)
        #expect(cli.status == 74)
        #expect(cli.stderr.contains("No space left on device"))
        #expect(try runProcess(Binaries.cli, ["read", "keep"], environment: env).outText == "me\n")
        let list = try runProcess(Binaries.cli, ["queue", "list", "--json"], environment: env)
        #expect(list.outText.contains("https://a/"))
        #expect(!list.outText.contains("unreadable"))
    }

    @Test func killedImport_leavesTheOldOrTheNewSuite() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp.path + "/c")
        var members: [String: JSONValue] = [:]
        for i in 0..<2_000 { members["k\(i)"] = .int(i) }
        let newDocument = JSONWriter.bytes(["formatVersion": 1, "values": .object(members)])
        try Data(newDocument).write(to: URL(fileURLWithPath: tmp.path + "/new.json"))
        #expect(try runProcess(Binaries.cli, ["write", "old", "-bool", "true"], environment: env).status == 0)
        for _ in 0..<25 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Binaries.cli)
            p.arguments = ["import", tmp.path + "/new.json"]
            p.environment = env
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(UInt32.random(in: 0...6000))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            let read = try runProcess(Binaries.cli, ["read", "--json"], environment: env)
            #expect(read.status == 0)
            let values = try JSONParser.parse(read.stdout).objectValue ?? [:]
            #expect(values == ["old": true] || values == members, "a mix of old and new: \(values.count) keys")
            if values == members {
                #expect(
                    try runProcess(
                        Binaries.cli, ["import", "-"], environment: env, input: Array("{\"old\":true}".utf8)
                    ).status == 0)
            }
        }
    }
}
