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

    @Test func changedFiles_areListedShortly() {
        #expect(RunSession.list(["a.js"]) == "a.js")
        #expect(RunSession.list(["a.js", "b.js"]) == "a.js and b.js")
        #expect(RunSession.list(["a.js", "b.js", "c.js"]) == "a.js and 2 more files")
    }
}
