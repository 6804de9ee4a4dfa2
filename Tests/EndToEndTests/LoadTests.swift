import BridgeJSON
import Foundation
import TestSupport
import Testing

/// Many long-lived ports at once while the CLI rewrites the suite: every reply
/// well-formed, matched to its id, and showing one whole suite version.
///
/// By default 50 ports × 1,000 requests and 200 rewrites (seconds, for every
/// test run); `EXTENSION_BRIDGE_LOAD_FULL=1` runs the 50 × 10,000 and 1,000.
@Suite(.serialized) struct LoadTests {
    static let origin = "chrome-extension://testext/"
    static let full = ProcessInfo.processInfo.environment["EXTENSION_BRIDGE_LOAD_FULL"] == "1"

    @Test func fiftyPorts_whileTheSuiteIsRewritten_seeOnlyWholeVersions() throws {
        let ports = 50
        let requests = Self.full ? 10_000 : 1_000
        let rewrites = Self.full ? 1_000 : 200
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = [
            "EXTENSION_BRIDGE_CONTAINER": tmp.path + "/c", "EXTENSION_BRIDGE_ALLOWED_CALLERS": Self.origin,
            "HOME": tmp.path,
        ]
        // Version i: theme "v<i>" and enabled == (i is even), always written together.
        func document(_ i: Int) -> [UInt8] {
            JSONWriter.bytes(["extensionTheme": .string("v\(i)"), "extensionEnabled": .bool(i % 2 == 0)])
        }
        #expect(try runProcess(Binaries.cli, ["import"], environment: env, input: document(0)).status == 0)

        let hosts = try (0..<ports).map { _ in try HostPort(environment: env) }
        let problems = Locked<[String]>([])
        let done = Locked(0)
        let group = DispatchGroup()
        for (index, port) in hosts.enumerated() {
            group.enter()
            Thread {
                defer { group.leave() }
                var batch: [UInt8] = []
                for i in 0..<requests {
                    batch += frameBytes(["action": "getSettings", "id": .int(i)])
                    if batch.count > 32_768 || i == requests - 1 {
                        do { try port.sendRaw(batch) } catch {
                            problems.update { $0.append("port \(index): send failed") }
                        }
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                try? port.closeInput()
            }.start()
            group.enter()
            Thread {
                defer { group.leave() }
                var expected = 0
                while expected < requests {
                    guard let reply = try? port.receive(timeout: 60) else {
                        problems.update { $0.append("port \(index): no reply for id \(expected)") }
                        return
                    }
                    guard reply["id"] == .int(expected), reply["status"] == "success",
                        let theme = reply["settings"]?["theme"]?.stringValue, theme.hasPrefix("v"),
                        let version = Int(theme.dropFirst()), reply["settings"]?["enabled"] == .bool(version % 2 == 0)
                    else {
                        problems.update { $0.append("port \(index): bad reply \(JSONWriter.string(reply))") }
                        return
                    }
                    expected += 1
                }
                done.update { $0 += 1 }
            }.start()
        }
        for i in 1...rewrites {
            let result = try runProcess(Binaries.cli, ["import"], environment: env, input: document(i))
            if result.status != 0 { problems.update { $0.append("rewrite \(i) failed: \(result.stderr)") } }
        }
        group.wait()
        #expect(problems.value.isEmpty, "\(problems.value.prefix(5))")
        #expect(done.value == ports)
        for port in hosts { #expect(port.waitForExit() == 0, "\(port.ending)") }
        #expect(hosts.allSatisfy { !$0.process.isRunning })
    }
}
