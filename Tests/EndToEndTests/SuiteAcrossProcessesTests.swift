import BridgeJSON
import Foundation
import TestSupport
import Testing

/// The CLI and the host meeting in a real group container.
@Suite(.serialized) struct SuiteAcrossProcessesTests {
    static let origin = "chrome-extension://testext/"

    func environment(_ tmp: TemporaryFolder) -> [String: String] {
        [
            "EXTENSION_BRIDGE_CONTAINER": tmp.path + "/c", "EXTENSION_BRIDGE_ALLOWED_CALLERS": Self.origin,
            "HOME": tmp.path,
        ]
    }

    @Test func cliWrites_hostReads_hostSaves_cliDrains() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        #expect(try runProcess(Binaries.cli, ["enable"], environment: env).status == 0)
        #expect(try runProcess(Binaries.cli, ["write", "extensionTheme", "dark"], environment: env).status == 0)
        #expect(
            try runProcess(Binaries.cli, ["write", "vocabulary", "-dict", "blue", "blauw"], environment: env).status
                == 0)
        let input =
            frameBytes(["action": "getSettings", "id": 1])
            + frameBytes(["action": "saveContent", "url": "https://a/", "title": "Blå", "content": "blue sky", "id": 2])
            + frameBytes(["action": "getContent", "url": "https://a/", "id": 3])
            + frameBytes(["message": "request:enabled_status"])
        let host = try runProcess(Binaries.host, [Self.origin], environment: env, input: input)
        let replies = try splitFrames(host.stdout)
        #expect(replies[0]["settings"] == ["enabled": true, "theme": "dark"])
        #expect(replies[1]["message"] == "Content saved")
        #expect(replies[2]["rules"] == ["vocabulary": ["blue": "blauw"]])
        #expect(replies[2]["items"]?.arrayValue?.first?["excerpt"] == "blue sky")
        #expect(replies[3] == ["delivery:enabled_status": true])
        let drain = try runProcess(Binaries.cli, ["queue", "drain", "--json"], environment: env)
        #expect(drain.status == 0)
        let item = try JSONParser.parse(drain.outText.trimmingCharacters(in: .newlines))
        #expect(item["url"] == "https://a/")
        #expect(item["title"] == "Blå")
        #expect(item["content"] == "blue sky")
        #expect(item["source"] == .string(Self.origin))
        #expect(item["id"] == replies[1]["itemId"])
        #expect(drain.stderr.contains("drained 1 item"))
        #expect(try runProcess(Binaries.cli, ["queue", "count"], environment: env).outText == "0\n")
    }

    @Test func concurrentWriters_loseNoKey() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        let writers = 8
        let perWriter = 200
        // Each writer is a shell loop of CLI processes: real concurrent processes.
        var processes: [Process] = []
        for w in 0..<writers {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = [
                "-c",
                // A write that waited past the lock timeout says so (exit 75) and changed
                // nothing: the writer tries it again, as a script would. Any other failure fails.
                "i=0; tries=0; while [ $i -lt \(perWriter) ]; do \"$0\" write w\(w)-$i -int $i; s=$?; "
                    + "if [ $s -eq 0 ]; then i=$((i+1)); tries=0; "
                    + "elif [ $s -eq 75 ] && [ $tries -lt 20 ]; then tries=$((tries+1)); else exit 1; fi; done",
                Binaries.cli,
            ]
            p.environment = env
            try p.run()
            processes.append(p)
        }
        for p in processes {
            p.waitUntilExit()
            #expect(p.terminationStatus == 0)
        }
        let read = try runProcess(Binaries.cli, ["read", "--json"], environment: env)
        let values = try JSONParser.parse(read.stdout).objectValue ?? [:]
        #expect(values.count == writers * perWriter)
        for w in 0..<writers {
            for i in 0..<perWriter where values["w\(w)-\(i)"] != .int(i) {
                Issue.record("lost w\(w)-\(i)")
            }
        }
    }

    @Test func concurrentHosts_appendEveryItemOnce() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        let hosts = 8
        let perHost = 200
        let results = Locked<[Finished?]>(Array(repeating: nil, count: hosts))
        DispatchQueue.concurrentPerform(iterations: hosts) { h in
            var input: [UInt8] = []
            for i in 0..<perHost {
                input += frameBytes(["action": "saveContent", "url": .string("https://h\(h)/\(i)"), "content": "c"])
            }
            let r = try? runProcess(Binaries.host, [Self.origin], environment: env, input: input)
            results.update { $0[h] = r }
        }
        var acknowledged = Set<String>()
        for r in results.value {
            for reply in try splitFrames(r?.stdout ?? []) {
                if let id = reply["itemId"]?.stringValue { acknowledged.insert(id) }
            }
        }
        #expect(acknowledged.count == hosts * perHost)
        let drain = try runProcess(Binaries.cli, ["queue", "drain", "--json"], environment: env)
        let drained = drain.outText.split(separator: "\n").compactMap {
            try? JSONParser.parse(String($0))["id"]?.stringValue
        }
        #expect(drained.count == hosts * perHost)
        #expect(Set(drained) == acknowledged)
    }

    /// Two hosts see the same idempotency key through `queue/.keys`: 8 host
    /// processes each send 20 saves under 5 keys at once; the queue ends
    /// with one item per key, and every reply names that item.
    @Test func concurrentHosts_sameKey_queueOneItemPerKey() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        let hosts = 8
        let results = Locked<[Finished?]>(Array(repeating: nil, count: hosts))
        DispatchQueue.concurrentPerform(iterations: hosts) { h in
            var input: [UInt8] = []
            for i in 0..<20 {
                input += frameBytes([
                    "action": "saveContent", "url": "https://example.org/same", "content": "the same selection",
                    "kind": "selection", "key": .string("key-\(i % 5)"),
                ])
            }
            let r = try? runProcess(Binaries.host, [Self.origin], environment: env, input: input)
            results.update { $0[h] = r }
        }
        var idsByKey: [String: Set<String>] = [:]
        for r in results.value {
            for (i, reply) in try splitFrames(r?.stdout ?? []).enumerated() {
                #expect(reply["status"] == "success")
                if let id = reply["itemId"]?.stringValue { idsByKey["key-\(i % 5)", default: []].insert(id) }
            }
        }
        #expect(idsByKey.count == 5)
        #expect(idsByKey.values.allSatisfy { $0.count == 1 })
        let drain = try runProcess(Binaries.cli, ["queue", "drain", "--json", "--all"], environment: env)
        let drained = drain.outText.split(separator: "\n").compactMap {
            try? JSONParser.parse(String($0))["id"]?.stringValue
        }
        #expect(Set(drained) == Set(idsByKey.values.flatMap { $0 }))
        #expect(drained.count == 5)
    }

    @Test func killedWriters_neverTearTheSuite_orLoseACommittedWrite() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        var committed: [String: Int] = [:]
        for i in 0..<60 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Binaries.cli)
            p.arguments = ["write", "k\(i % 7)", "-int", "\(i)"]
            p.environment = env
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(UInt32.random(in: 0...4000))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            if p.terminationReason == .exit && p.terminationStatus == 0 { committed["k\(i % 7)"] = i }
            let read = try runProcess(Binaries.cli, ["read", "--json"], environment: env)
            #expect(read.status == 0, "the suite must always parse (iteration \(i)): \(read.stderr)")
            let values = try JSONParser.parse(read.stdout).objectValue ?? [:]
            for (key, value) in committed {
                // A later write to the same key may have landed before its kill; never an older one.
                #expect((values[key]?.intValue ?? -1) >= value, "lost committed \(key)=\(value)")
            }
        }
    }

    @Test func killedHost_keepsEveryAcknowledgedItem() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        var acknowledged = Set<String>()
        for round in 0..<10 {
            let port = try HostPort(environment: env)
            let deadline = Date().addingTimeInterval(Double.random(in: 0.02...0.2))
            var i = 0
            while Date() < deadline {
                try port.send(["action": "saveContent", "url": .string("https://r\(round)/\(i)"), "content": "x"])
                if let id = try port.receive(timeout: 2)?["itemId"]?.stringValue { acknowledged.insert(id) }
                i += 1
            }
            try port.send(["action": "saveContent", "url": "https://in-flight/", "content": "y"])
            kill(port.process.processIdentifier, SIGKILL)
            _ = port.waitForExit()
        }
        let list = try runProcess(Binaries.cli, ["queue", "list", "--json"], environment: env)
        #expect(list.status == 0)
        let ids = Set(
            list.outText.split(separator: "\n").compactMap { try? JSONParser.parse(String($0))["id"]?.stringValue })
        #expect(acknowledged.isSubset(of: ids))
        #expect(!list.outText.contains("unreadable"))
    }

    @Test func killedDrain_losesNoItem() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        var input: [UInt8] = []
        for i in 0..<300 {
            input += frameBytes(["action": "saveContent", "url": .string("https://d/\(i)"), "content": "c"])
        }
        let saved = try runProcess(Binaries.host, [Self.origin], environment: env, input: input)
        let all = Set(try splitFrames(saved.stdout).compactMap { $0["itemId"]?.stringValue })
        #expect(all.count == 300)
        var handedOver = Set<String>()
        for _ in 0..<20 {
            let p = Process()
            let out = Pipe()
            p.executableURL = URL(fileURLWithPath: Binaries.cli)
            p.arguments = ["queue", "drain", "--json"]
            p.environment = env
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            try p.run()
            usleep(UInt32.random(in: 0...3000))
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            for line in text.split(separator: "\n") {
                if let id = try? JSONParser.parse(String(line))["id"]?.stringValue { handedOver.insert(id) }
            }
        }
        let list = try runProcess(Binaries.cli, ["queue", "list", "--json"], environment: env)
        let remaining = Set(
            list.outText.split(separator: "\n").compactMap { try? JSONParser.parse(String($0))["id"]?.stringValue })
        #expect(handedOver.union(remaining) == all)
    }

    @Test func missingContainer_readsAsDefaults() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        #expect(try runProcess(Binaries.cli, ["read", "--json"], environment: env).outText == "{}\n")
        #expect(try runProcess(Binaries.cli, ["queue", "count"], environment: env).outText == "0\n")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/c"))
    }

    @Test func immutableContainer_writeFailsWith74_andTheOldSuiteSurvives() throws {
        let tmp = TemporaryFolder()
        defer {
            _ = try? runProcess("/usr/bin/chattr", ["-i", tmp.path + "/c"], environment: [:])
            tmp.remove()
        }
        let env = environment(tmp)
        #expect(try runProcess(Binaries.cli, ["write", "k", "old"], environment: env).status == 0)
        // chattr +i stops even root (CI runs as root, where chmod would not).
        let locked = try runProcess("/usr/bin/chattr", ["+i", tmp.path + "/c"], environment: [:])
        try #require(locked.status == 0, "chattr +i is needed for this test: \(locked.stderr)")
        let write = try runProcess(Binaries.cli, ["write", "k", "new"], environment: env)
        #expect(write.status == 74)
        #expect(write.stderr.contains("Operation not permitted") || write.stderr.contains("Permission denied"))
        #expect(try runProcess(Binaries.cli, ["read", "k"], environment: env).outText == "old\n")
    }
}
