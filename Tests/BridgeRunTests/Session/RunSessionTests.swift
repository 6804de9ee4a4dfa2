import BridgeSystem
import BrowserSupport
import Foundation
import TestSupport
import Testing

@testable import BridgeRun

@Suite struct RunSessionTests {
    @Test func aRandomUUID_isVersionFour() {
        let uuid = RunSession.randomUUID()
        let parts = uuid.split(separator: "-")
        #expect(parts.map(\.count) == [8, 4, 4, 4, 12])
        #expect(parts[2].first == "4")
        #expect("89ab".contains(parts[3].first ?? "x"))
        #expect(uuid != RunSession.randomUUID())
    }

    /// Before any browser is looked for or any build runs.
    @Test func aTMPDIRThatIsNoFolder_endsTheRunBeforeAnythingStarts() {
        let project = RunProject(
            kind: .generated, name: "P", folder: "/nonexistent/p", extensionFolder: "/nonexistent/p/extension",
            hostName: "com.example.p", hostProduct: "p-host", group: "group.com.example.p", chromiumID: "",
            firefoxID: "")
        let session = RunSession(
            project: project, options: RunSession.Options(browser: .firefox, url: nil, verbose: false, headless: true),
            environment: ["TMPDIR": "/nonexistent/x", "PATH": "/nonexistent"], output: { _ in })
        #expect(throws: RunError.temporaryDirectory("/nonexistent/x", problem: "does not exist")) {
            try session.run()
        }
    }

    /// The build script of a checkout (found or named) is a program `run` starts: one another user
    /// can write is refused, as install and doctor refuse such a host, before anything runs.
    @Test func aBuildScriptOthersCanWrite_isRefusedBeforeItRuns() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let script = tmp.path + "/scripts/release-build.sh"
        try FileSystem.makeDirectories(tmp.path + "/scripts")
        try FileSystem.writeAtomically(script, utf8: "#!/bin/sh\ntouch \"$0.ran\"\n", permissions: 0o755)
        chmod(script, 0o777)
        let project = RunProject(
            kind: .builtIn, name: "ExtensionBridge", folder: tmp.path, extensionFolder: tmp.path + "/extension",
            hostName: "org.extensionbridge.host", hostProduct: "extension-bridge-host",
            group: "group.org.extensionbridge.shared", chromiumID: "", firefoxID: "")
        let session = RunSession(
            project: project, options: RunSession.Options(browser: .firefox, url: nil, verbose: false, headless: true),
            environment: ["TMPDIR": "/tmp", "PATH": "/nonexistent"], output: { _ in })
        let refusal = try #require(PathTrust.refusal(script))
        #expect(refusal.path == script)
        #expect(throws: RunError.untrusted(refusal)) { try session.run() }
        #expect(RunError.untrusted(refusal).exitStatus == 77)
        #expect(RunError.untrusted(refusal).description.contains("chmod go-w"))
        #expect(!Platform.exists(script + ".ran"))
        // Only its owner may write it: the check passes, and the run goes on (to the missing browser).
        chmod(script, 0o755)
        #expect(project.untrustedFile() == nil)
        #expect(throws: RunError.self) { try session.run() }
    }

    @Test func changedFiles_areListedShortly() {
        #expect(RunSession.list(["a.js"]) == "a.js")
        #expect(RunSession.list(["a.js", "b.js"]) == "a.js and b.js")
        #expect(RunSession.list(["a.js", "b.js", "c.js"]) == "a.js and 2 more files")
    }
}
