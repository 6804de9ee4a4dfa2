import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BrowserSupport

@Suite struct DoctorSuiteTests {
    /// The suite's row: a known key of the wrong type is a warning that names it, the type found
    /// and the `write` that fixes it; a right suite with the extension off is a warning whose fix
    /// is the `enable`, and ok once it is on.
    @Test func suiteCheck_namesTheKeyTheTypeAndTheFix() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path + "/c", groupID: "group.test")
        let suite = Suite(container: container)
        #expect(Doctor.suiteCheck(container, tool: "eb").status == .warning)
        try suite.update { $0["vocabulary"] = .array([.string("blue")]) }
        let wrong = Doctor.suiteCheck(container, tool: "eb")
        #expect(wrong.status == .warning)
        #expect(wrong.detail.hasPrefix("vocabulary is a value of type array"))
        #expect(wrong.fix == nil, "one word: no dictionary keeps it")
        #expect(wrong.detail.contains("no one command keeps what is there"))
        #expect(
            wrong.detail.contains("`eb write --suite group.test vocabulary -dict WORD REPLACEMENT …`"),
            "\(wrong.detail)")
        // Pasting a fix never loses an entry: one bad entry of three is written as its text, the
        // others kept (the fix was the README's two words, replacing the user's vocabulary).
        try suite.update {
            $0["vocabulary"] = .dictionary(["sky": .string("himmel"), "tree": .string("baum"), "blue": .int(1)])
        }
        let partial = Doctor.suiteCheck(container, tool: "eb")
        #expect(partial.fix == "eb write --suite group.test vocabulary -dict blue 1 sky himmel tree baum")
        try suite.update { $0["vocabulary"] = .array([.string("it's"), .string("het is")]) }
        #expect(
            Doctor.suiteCheck(container, tool: "eb").fix
                == "eb write --suite group.test vocabulary -dict 'it'\\''s' 'het is'")
        // A word that reads as an option goes after `--`, and `--suite` before it: pasted, it writes
        // this group's vocabulary, every word kept. A word the printed line would escape gets no command.
        try suite.update { $0["vocabulary"] = .dictionary(["--suite": .string("tmp"), "-h": .int(1)]) }
        #expect(
            Doctor.suiteCheck(container, tool: "eb").fix
                == "eb write --suite group.test vocabulary -dict -- --suite tmp -h 1")
        try suite.update { $0["vocabulary"] = .dictionary(["rtl\u{200F}mark": .string("y"), "n": .int(1)]) }
        #expect(Doctor.suiteCheck(container, tool: "eb").fix == nil)
        try suite.update { $0["vocabulary"] = .dictionary(["blue": .string("blauw")]) }
        let off = Doctor.suiteCheck(container, tool: "eb")
        #expect(off.status == .warning && off.fix == "eb enable --suite group.test")
        #expect(off.detail.hasSuffix("off (turn it on with: eb enable --suite group.test)"))
        try suite.update { $0["extensionEnabled"] = .bool(true) }
        let on = Doctor.suiteCheck(container, tool: "eb")
        #expect(on.status == .ok && on.fix == nil)
        #expect(on.detail.hasSuffix("the extension is on"))
    }

    /// A group nothing was written to has no suite.json: the row says so instead of "ok …/suite.json",
    /// a warning (the extension is off there) whose fix is the `enable`.
    @Test func suiteCheck_ofAGroupNothingWasWrittenTo_saysThereIsNoSuiteYet() {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path + "/c", groupID: "group.test")
        let row = Doctor.suiteCheck(container, tool: "eb")
        #expect(row.status == .warning && row.path == container.path && row.fix == "eb enable --suite group.test")
        #expect(row.detail.hasPrefix("no suite yet: nothing was written to group.test"), "\(row.detail)")
    }

    /// A suite the host cannot read makes it refuse every request: the row is an error, with `repair`.
    @Test func suiteCheck_ofAnUnreadableSuite_isAnError() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path + "/c", groupID: "group.test")
        try Suite(container: container).update { $0["k"] = .string("v") }
        try FileSystem.writeAtomically(container.suitePath, Array("{\"formatVersion\": 1, \"val".utf8))
        let row = Doctor.suiteCheck(container, tool: "eb")
        #expect(row.status == .error, "\(row.detail)")
        #expect(row.fix == "eb repair --suite group.test")
    }
}
