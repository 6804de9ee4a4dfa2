import BridgeJSON
import Foundation
import TestSupport
import Testing

/// The built `extension-bridge-host`, spawned over pipes as a browser does.
@Suite struct HostProcessTests {
    static let origin = "chrome-extension://testext/"

    func environment(_ tmp: TemporaryFolder, _ extra: [String: String] = [:]) -> [String: String] {
        var env = [
            "EXTENSION_BRIDGE_CONTAINER": tmp.path + "/c", "EXTENSION_BRIDGE_ALLOWED_CALLERS": Self.origin + ",ff@test",
            "HOME": tmp.path, "PATH": "/usr/bin:/bin",
        ]
        env.merge(extra) { $1 }
        return env
    }

    @Test func oneShot_answersAndExitsZeroWhenStdinCloses() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let result = try runProcess(
            Binaries.host, [Self.origin], environment: environment(tmp), input: frameBytes(["action": "getSettings"]))
        #expect(result.status == 0)
        #expect(
            try splitFrames(result.stdout) == [["status": "success", "settings": ["enabled": false, "theme": "auto"]]])
    }

    @Test func port_servesManyFramesInOrderWithIds() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        var input: [UInt8] = []
        for i in 0..<50 { input += frameBytes(["action": "getSettings", "id": .int(i)]) }
        let result = try runProcess(Binaries.host, [Self.origin], environment: environment(tmp), input: input)
        #expect(result.status == 0)
        let replies = try splitFrames(result.stdout)
        #expect(replies.map { $0["id"] } == (0..<50).map { JSONValue.int($0) })
    }

    @Test func firefoxArguments_areAccepted() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let result = try runProcess(
            Binaries.host, [tmp.path + "/.mozilla/native-messaging-hosts/org.extensionbridge.host.json", "ff@test"],
            environment: environment(tmp), input: frameBytes(["action": "hello"]))
        #expect(try splitFrames(result.stdout).first?["caller"] == "ff@test")
    }

    @Test func unknownCaller_isRefusedWithOneFrameAndExit3() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let result = try runProcess(
            Binaries.host, ["chrome-extension://intruder/"], environment: environment(tmp),
            input: frameBytes(["action": "getSettings"]))
        #expect(result.status == 3)
        let frames = try splitFrames(result.stdout)
        #expect(frames.count == 1)
        #expect(frames.first?["code"] == "caller_not_allowed")
        #expect(result.stderr.contains("refused caller chrome-extension://intruder/"))
    }

    @Test func allowlistFileBesideTheBinary_isUsedWhenNoEnvironmentList() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let copy = tmp.path + "/extension-bridge-host"
        try FileManager.default.copyItem(atPath: Binaries.host, toPath: copy)
        try "# written by install\n\(Self.origin)\n".write(
            toFile: tmp.path + "/extension-bridge-host.allowed", atomically: true, encoding: .utf8)
        var env = environment(tmp)
        env["EXTENSION_BRIDGE_ALLOWED_CALLERS"] = nil
        let ok = try runProcess(copy, [Self.origin], environment: env, input: frameBytes(["action": "hello"]))
        #expect(ok.status == 0)
        #expect(try splitFrames(ok.stdout).first?["status"] == "success")
        let refused = try runProcess(copy, ["chrome-extension://other/"], environment: env, input: [])
        #expect(refused.status == 3)
        let bare = try runProcess(copy, [], environment: env, input: [])
        #expect(bare.status == 3)
    }

    /// A configuration every user may write (or another user's) chose which extensions the host
    /// served: the host now serves nobody from it and says why on stderr, as doctor does; mode
    /// 0644 serves again.
    @Test func configurationEveryUserMayWrite_servesNobody() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let copy = tmp.path + "/extension-bridge-host"
        try FileManager.default.copyItem(atPath: Binaries.host, toPath: copy)
        let conf = tmp.path + "/extension-bridge-host.conf"
        try "format = 1\nallow = \(Self.origin)\n".write(toFile: conf, atomically: true, encoding: .utf8)
        var env = environment(tmp)
        env["EXTENSION_BRIDGE_ALLOWED_CALLERS"] = nil
        #expect(chmod(conf, 0o666) == 0)
        let refused = try runProcess(copy, [Self.origin], environment: env, input: frameBytes(["action": "hello"]))
        #expect(refused.status == 3)
        #expect(try splitFrames(refused.stdout).first?["code"] == "caller_not_allowed")
        #expect(refused.stderr.contains(conf + " is writable by every user; serving nobody"), "\(refused.stderr)")
        #expect(chmod(conf, 0o644) == 0)
        let served = try runProcess(copy, [Self.origin], environment: env, input: frameBytes(["action": "hello"]))
        let reply = try splitFrames(served.stdout).first
        #expect(served.status == 0 && reply?["status"] == "success")
    }

    @Test func badInput_getsStableCodes_andTheHostKeepsServing() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        var input = frameBytes(Array("{nope".utf8))
        input += frameBytes([0x22, 0xFF, 0x22])
        input += frameBytes(Array("[1,2]".utf8))
        input += frameBytes(Array((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8))
        input += frameBytes([])
        input += frameBytes(["action": "frobnicate"])
        input += frameBytes(["action": "getSettings", "id": "last"])
        let result = try runProcess(Binaries.host, [Self.origin], environment: environment(tmp), input: input)
        #expect(result.status == 0)
        let codes = try splitFrames(result.stdout).map { $0["code"] ?? $0["id"] ?? nil }
        #expect(
            codes == [
                "invalid_json", "invalid_utf8", "not_an_object", "too_deep", "invalid_json", "unknown_action", "last",
            ])
    }

    @Test func oversizedMessage_isDiscardedAndAnswered_thenServingContinues() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let big = frameBytes(
            Array("{\"action\":\"saveContent\",\"content\":\"\(String(repeating: "x", count: 5000))\"}".utf8))
        let input = big + frameBytes(["action": "queueCount", "id": 2])
        let result = try runProcess(
            Binaries.host, [Self.origin], environment: environment(tmp, ["EXTENSION_BRIDGE_MAX_REQUEST_BYTES": "1000"]),
            input: input)
        let replies = try splitFrames(result.stdout)
        #expect(replies.count == 2)
        #expect(replies[0]["code"] == "message_too_large")
        #expect(replies[0]["size"] == .int(big.count - 4))
        #expect(replies[0]["limit"] == 1000)
        #expect(replies[1] == ["status": "success", "count": 0, "id": 2])
    }

    @Test func replyOverOneMebibyte_isReplacedBySizedError() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        var words: [String] = []
        for i in 0..<40_000 { words += ["word\(i)", String(repeating: "y", count: 20)] }
        let write = try runProcess(
            Binaries.cli, ["write", "vocabulary", "-dict"] + words, environment: environment(tmp))
        #expect(write.status == 0)
        let result = try runProcess(
            Binaries.host, [Self.origin], environment: environment(tmp),
            input: frameBytes(["action": "getContent", "url": "https://a/", "id": 9]))
        let replies = try splitFrames(result.stdout)
        #expect(replies.count == 1)
        #expect(replies[0]["code"] == "reply_too_large")
        #expect(replies[0]["id"] == 9)
        #expect((replies[0]["size"]?.intValue ?? 0) > 1_048_576)
        #expect(result.stdout.count <= 1_048_576 + 4)
    }

    @Test(arguments: [[UInt8]([5, 0]), frameBytes(Array("{\"a\":1}".utf8)).dropLast(2)])
    func endOfInputInsideAFrame_exits1WithALogLine(input: [UInt8]) throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let result = try runProcess(Binaries.host, [Self.origin], environment: environment(tmp), input: input)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("input ended inside a frame"))
    }

    @Test func debugLogging_goesToStderr_stdoutHoldsOnlyFrames() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let input =
            frameBytes(["action": "saveContent", "url": "https://a/", "content": "SECRET-CONTENT"])
            + frameBytes(["action": "nope"])
        let result = try runProcess(
            Binaries.host, [Self.origin], environment: environment(tmp, ["EXTENSION_BRIDGE_LOG": "debug"]), input: input
        )
        #expect(try splitFrames(result.stdout).count == 2)
        #expect(result.stderr.contains("debug:"))
        #expect(!result.stderr.contains("SECRET-CONTENT"))
    }

    @Test func sigterm_onAnIdlePort_exitsZeroPromptly() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let port = try HostPort(environment: environment(tmp))
        #expect(try port.request(["action": "hello", "id": 1])?["status"] == "success")
        kill(port.process.processIdentifier, SIGTERM)
        #expect(port.waitForExit() == 0, "\(port.ending)")
    }

    @Test func port_pushesSettingsChangedWhenTheCLIWrites() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        let port = try HostPort(environment: env)
        #expect(try port.request(["action": "hello", "id": 1])?["id"] == 1)
        #expect(
            try runProcess(Binaries.cli, ["write", "extensionEnabled", "-bool", "true"], environment: env).status == 0)
        #expect(try port.receive(timeout: 5)?["enabled"] == true)
        #expect(
            try runProcess(Binaries.cli, ["write", "vocabulary", "-dict", "blue", "blauw"], environment: env).status
                == 0)
        // The push is page 0 of getPageState, and the settings.
        let event = try port.receive(timeout: 5)
        #expect(event?["event"] == "pageState")
        #expect(event?["rules"] == ["vocabulary": ["blue": "blauw"]])
        #expect(event?["settings"] == ["enabled": true, "theme": "auto"])
        let page = try #require(try port.request(["action": "getPageState", "id": 2]))
        for key in ["enabled", "page", "pages", "rules", "rulesVersion", "undeliverable"] {
            #expect(event?[key] == page[key], "\(key)")
        }
        // Switched off: pushed once without rules; a vocabulary written then pushes nothing.
        #expect(
            try runProcess(Binaries.cli, ["write", "extensionEnabled", "-bool", "false"], environment: env).status == 0)
        #expect(try port.receive(timeout: 5)?["rules"] == ["vocabulary": [:]])
        #expect(
            try runProcess(Binaries.cli, ["write", "vocabulary", "-dict", "red", "rood"], environment: env).status == 0)
        #expect(try port.receive(timeout: 1) == nil)
        // A write that changes nothing the extension sees pushes nothing.
        #expect(try runProcess(Binaries.cli, ["write", "private", "x"], environment: env).status == 0)
        #expect(try port.receive(timeout: 1) == nil)
        try port.closeInput()
        #expect(port.waitForExit() == 0, "\(port.ending)")
    }

    @Test func corruptSuite_answersSuiteUnreadable_andKeepsServing() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path + "/c", withIntermediateDirectories: true)
        try "{\"formatVersion\":1,\"values\":".write(
            toFile: tmp.path + "/c/suite.json", atomically: true, encoding: .utf8)
        let input = frameBytes(["action": "getSettings"]) + frameBytes(["action": "queueCount"])
        let result = try runProcess(Binaries.host, [Self.origin], environment: environment(tmp), input: input)
        let replies = try splitFrames(result.stdout)
        #expect(replies[0]["code"] == "suite_unreadable")
        #expect(replies[0]["message"]?.stringValue?.contains(tmp.path + "/c/suite.json") == true)
        #expect(replies[1]["status"] == "success")
        #expect(
            try String(contentsOfFile: tmp.path + "/c/suite.json", encoding: .utf8)
                == "{\"formatVersion\":1,\"values\":")
    }

    @Test func queueQuota_givesQueueFull() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        var input: [UInt8] = []
        for i in 0..<3 {
            input += frameBytes(["action": "saveContent", "url": "https://a/", "content": .string("\(i)")])
        }
        let result = try runProcess(
            Binaries.host, [Self.origin], environment: environment(tmp, ["EXTENSION_BRIDGE_QUEUE_MAX_ITEMS": "2"]),
            input: input)
        #expect(try splitFrames(result.stdout).map { $0["status"] } == ["success", "success", "error"])
        #expect(try splitFrames(result.stdout).last?["code"] == "queue_full")
    }

    @Test func noHome_andNoContainer_answersStorageError() throws {
        let result = try runProcess(
            Binaries.host, [Self.origin], environment: ["EXTENSION_BRIDGE_ALLOWED_CALLERS": Self.origin],
            input: frameBytes(["action": "getSettings"]))
        #expect(result.status == 0)
        #expect(try splitFrames(result.stdout).first?["code"] == "storage_error")
    }
}
