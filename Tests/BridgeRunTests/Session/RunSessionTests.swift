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

    @Test func changedFiles_areListedShortly() {
        #expect(RunSession.list(["a.js"]) == "a.js")
        #expect(RunSession.list(["a.js", "b.js"]) == "a.js and b.js")
        #expect(RunSession.list(["a.js", "b.js", "c.js"]) == "a.js and 2 more files")
    }
}
