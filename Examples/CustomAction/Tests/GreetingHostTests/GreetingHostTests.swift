import Foundation
import Testing

/// The built `greeting-host`, started as a browser starts a host: the
/// caller's origin as its argument, framed JSON on real pipes.
@Suite struct GreetingHostTests {
    let caller = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"

    /// `GREETING_HOST`, else the debug build of this package.
    var hostPath: String {
        if let path = ProcessInfo.processInfo.environment["GREETING_HOST"] { return path }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return package.appendingPathComponent(".build/debug/greeting-host").path
    }

    func frame(_ object: [String: Any]) throws -> Data {
        let body = try JSONSerialization.data(withJSONObject: object)
        var length = UInt32(body.count)
        return Data(bytes: &length, count: 4) + body
    }

    /// Runs the host with `requests`, closes its stdin, and returns the replies.
    func exchange(_ requests: [[String: Any]], suite: [String: Any]) throws -> (replies: [[String: Any]], status: Int32)
    {
        let container = FileManager.default.temporaryDirectory.appendingPathComponent("greeting-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: container) }
        try FileManager.default.createDirectory(at: container, withIntermediateDirectories: true)
        let document: [String: Any] = ["formatVersion": 1, "values": suite]
        try JSONSerialization.data(withJSONObject: document).write(to: container.appendingPathComponent("suite.json"))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: hostPath)
        process.arguments = [caller]
        process.environment = [
            "EXTENSION_BRIDGE_ALLOWED_CALLERS": caller, "EXTENSION_BRIDGE_CONTAINER": container.path,
            "HOME": container.path,
        ]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        for request in requests { try input.fileHandleForWriting.write(contentsOf: try frame(request)) }
        try input.fileHandleForWriting.close()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()

        var replies: [[String: Any]] = []
        var offset = 0
        while offset + 4 <= bytes.count {
            let length = bytes.subdata(in: offset..<(offset + 4)).withUnsafeBytes {
                Int($0.loadUnaligned(as: UInt32.self))
            }
            let body = bytes.subdata(in: (offset + 4)..<(offset + 4 + length))
            replies.append(try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any]))
            offset += 4 + length
        }
        #expect(offset == bytes.count, "stdout holds whole frames and nothing else")
        return (replies, process.terminationStatus)
    }

    @Test func greet_answersFromTheSuite_andHelloListsIt() throws {
        let (replies, status) = try exchange(
            [
                ["action": "hello", "id": 1], ["action": "greet", "name": "Ada", "id": 2],
                ["action": "getSettings", "id": 3],
            ],
            suite: ["greeting": "Hej", "extensionEnabled": true])
        #expect(status == 0)
        #expect(replies.count == 3)
        #expect((replies[0]["actions"] as? [String])?.contains("greet") == true)
        #expect(replies[0]["group"] as? String == "group.org.example.greeting")
        #expect(replies[1]["greeting"] as? String == "Hej, Ada!")
        #expect(replies[1]["enabled"] as? Bool == true)
        #expect(replies[1]["id"] as? Int == 2)
        #expect((replies[2]["settings"] as? [String: Any])?["enabled"] as? Bool == true)
    }

    @Test func greet_withoutAName_isADocumentedError() throws {
        let (replies, _) = try exchange([["action": "greet", "id": "x"]], suite: [:])
        #expect(replies.first?["status"] as? String == "error")
        #expect(replies.first?["code"] as? String == "invalid_request")
        #expect(replies.first?["id"] as? String == "x")
    }
}
