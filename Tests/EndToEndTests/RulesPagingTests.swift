import BridgeJSON
import Foundation
import TestSupport
import Testing

/// Rules over the browsers' 1 MiB: pushed as their page 0, the rest served in pages.
@Suite struct RulesPagingTests {
    static let origin = "chrome-extension://testext/"

    func environment(_ tmp: TemporaryFolder) -> [String: String] {
        [
            "EXTENSION_BRIDGE_CONTAINER": tmp.path + "/c", "EXTENSION_BRIDGE_ALLOWED_CALLERS": Self.origin,
            "HOME": tmp.path, "PATH": "/usr/bin:/bin",
        ]
    }

    @Test func port_pushesPageZeroOfTooBigRules_andServesTheRestInPages() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = environment(tmp)
        let port = try HostPort(environment: env)
        #expect(try port.request(["action": "hello", "id": 1])?["status"] == "success")
        var words: [String: String] = [:]
        for i in 0..<60_000 { words["word\(i)"] = "replacement\(i)" }
        let document = try JSONSerialization.data(withJSONObject: ["extensionEnabled": true, "vocabulary": words])
        try document.write(to: URL(fileURLWithPath: tmp.path + "/values.json"))
        #expect(try runProcess(Binaries.cli, ["import", tmp.path + "/values.json"], environment: env).status == 0)
        // Generous timeouts: 60,000 entries under the sanitizers on a busy machine.
        let event = try #require(try port.receive(timeout: 60))
        #expect(event["event"] == "pageState")
        #expect(event["settings"] == ["enabled": true, "theme": "auto"])
        try port.send(["action": "getPageState", "id": 2])
        let first = try #require(try port.receive(timeout: 60))
        #expect(event["rules"] == first["rules"], "the push carries page 0")
        #expect(event["rulesVersion"] == first["rulesVersion"])
        let pages = try #require(event["pages"]?.intValue)
        #expect(pages >= 2)
        var count = event["rules"]?["vocabulary"]?.objectValue?.count ?? 0
        for page in 1..<pages {
            try port.send(["action": "getPageState", "page": .int(page), "id": 3])
            let reply = try #require(try port.receive(timeout: 60))
            #expect(reply["rulesVersion"] == first["rulesVersion"])
            count += reply["rules"]?["vocabulary"]?.objectValue?.count ?? 0
        }
        #expect(count == 60_000)
        try port.closeInput()
        #expect(port.waitForExit() == 0, "\(port.ending)")
    }
}
