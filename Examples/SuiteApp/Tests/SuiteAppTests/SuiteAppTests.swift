import Foundation
import Testing

/// The built `suite-app` (an app on SharedSuite) and the real `extension-bridge-host` meeting in
/// one group container, each a separate process, as an app and a browser's host do.
@Suite(.serialized) struct SuiteAppTests {
    static let caller = "chrome-extension://abcdefghijklmnopabcdefghijklmnop/"
    static var package: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }
    /// `SUITE_APP`, else this package's debug build.
    static var app: String {
        ProcessInfo.processInfo.environment["SUITE_APP"]
            ?? package.appendingPathComponent(".build/debug/suite-app").path
    }
    /// `EXTENSION_BRIDGE_HOST`, else ExtensionBridge's own debug build.
    static var host: String {
        ProcessInfo.processInfo.environment["EXTENSION_BRIDGE_HOST"]
            ?? package.appendingPathComponent("../../.build/debug/extension-bridge-host").standardized.path
    }

    let container = FileManager.default.temporaryDirectory.appendingPathComponent("suite-app-\(UUID().uuidString)")
    var environment: [String: String] {
        [
            "EXTENSION_BRIDGE_CONTAINER": container.path, "EXTENSION_BRIDGE_ALLOWED_CALLERS": Self.caller,
            "HOME": container.path,
        ]
    }

    func start(_ path: String, _ arguments: [String], input: Data? = nil) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardInput = stdin
        try process.run()
        if let input { try stdin.fileHandleForWriting.write(contentsOf: input) }
        try stdin.fileHandleForWriting.close()
        return (process, output)
    }

    /// Runs `suite-app ARGUMENTS`; its stdout.
    @discardableResult
    func app(_ arguments: String...) throws -> String {
        let (process, output) = try start(Self.app, arguments)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "suite-app \(arguments)")
        return text
    }

    /// The host's replies to `requests`, as a browser would get them.
    func host(_ requests: [[String: Any]]) throws -> [[String: Any]] {
        var input = Data()
        for request in requests {
            let body = try JSONSerialization.data(withJSONObject: request)
            var length = UInt32(body.count)
            input += Data(bytes: &length, count: 4) + body
        }
        let (process, output) = try start(Self.host, [Self.caller], input: input)
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
        return replies
    }

    func enabled() throws -> (settings: Bool?, legacy: Bool?) {
        let replies = try host([["action": "getSettings"], ["message": "request:enabled_status"]])
        return (
            (replies.first?["settings"] as? [String: Any])?["enabled"] as? Bool,
            replies.last?["delivery:enabled_status"] as? Bool
        )
    }

    @Test func appWrites_hostReads_theSeedKeyTurnsItOff_afterThePopupsSwitch() throws {
        defer { try? FileManager.default.removeItem(at: container) }
        try app("publish", "blue=blauw", "red=rood")
        let content = try host([["action": "getContent", "url": "https://example.org/"]])
        #expect(content.first?["enabled"] as? Bool == true)
        #expect(
            (content.first?["rules"] as? [String: Any])?["vocabulary"] as? [String: String] == [
                "blue": "blauw", "red": "rood",
            ])
        // The popup's switch (the host's setSettings) stores extensionEnabled; the app's seed key still wins after it.
        _ = try host([["action": "setSettings", "settings": ["enabled": true]]])
        try app("seed-enabled", "false")
        #expect(try enabled() == (false, false))
        #expect(try app("status") == "enabled=false words=2\n")
        try app("seed-enabled", "true")
        #expect(try enabled() == (true, true))
    }

    @Test func hostSaves_appDrains_eachItemOnce() throws {
        defer { try? FileManager.default.removeItem(at: container) }
        try app("publish")
        let saved = try host([
            ["action": "saveContent", "url": "https://a.example/", "content": "first"],
            ["action": "saveContent", "url": "https://b.example/", "content": "second\tline"],
        ])
        #expect(saved.allSatisfy { $0["status"] as? String == "success" })
        #expect(try app("drain") == "https://a.example/\tfirst\nhttps://b.example/\tsecond\tline\n")
        #expect(try app("drain") == "")
        #expect(try host([["action": "queueCount"]]).first?["count"] as? Int == 0)
    }

    @Test func appWatches_itemsTheHostSavesLater() throws {
        defer { try? FileManager.default.removeItem(at: container) }
        try app("publish")
        let (watch, output) = try start(Self.app, ["watch", "2"])
        Thread.sleep(forTimeInterval: 0.3)  // the watch is waiting before anything is saved
        _ = try host([["action": "saveContent", "url": "https://a.example/", "content": "later"]])
        _ = try host([["action": "saveContent", "url": "https://b.example/", "content": "later still"]])
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        watch.waitUntilExit()
        #expect(watch.terminationStatus == 0)
        #expect(text == "https://a.example/\tlater\nhttps://b.example/\tlater still\n")
    }

    @Test func appSharesAFile_privateInTheGroupsFiles() throws {
        defer { try? FileManager.default.removeItem(at: container) }
        try app("share", "notes.txt", "from the app")
        let shared = container.appendingPathComponent("files/notes.txt")
        #expect(try String(contentsOf: shared, encoding: .utf8) == "from the app")
        let attributes = try FileManager.default.attributesOfItem(atPath: shared.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }

    /// The app's suite code needs SharedSuite and nothing else of ExtensionBridge.
    @Test func appKit_importsSharedSuiteOnly() throws {
        let source = try String(
            contentsOf: Self.package.appendingPathComponent("Sources/SuiteAppKit/SuiteApp.swift"), encoding: .utf8)
        let imports = source.split(separator: "\n").filter { $0.hasPrefix("import ") }
        #expect(imports == ["import SharedSuite"])
    }
}
