import Foundation
import TestSupport
import Testing

@testable import BridgeHost

@Suite struct BuiltInActionsTests {
    /// Every built-in action has one name and its own section in docs/PROTOCOL.md, where an
    /// extension author looks it up.
    @Test func everyActionIsNamedOnce_andDocumented() throws {
        let names = BuiltInActions.all.map(\.name)
        #expect(Set(names).count == names.count)
        let protocolText = try String(contentsOfFile: Repository.path("docs/PROTOCOL.md"), encoding: .utf8)
        for name in names {
            #expect(protocolText.contains("### `\(name)`"), "docs/PROTOCOL.md has no section for \(name)")
        }
    }

    /// Reads are resent after a dropped port; appends and removals are not.
    @Test func resendSafe_exactlyTheReads() {
        let safe = BuiltInActions.all.filter(\.resendSafe).map(\.name).sorted()
        #expect(safe == ["getContent", "getPageState", "getSettings", "queueCount", "setSettings", "transform"])
    }
}
