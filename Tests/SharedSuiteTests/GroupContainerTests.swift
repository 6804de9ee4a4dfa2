import BridgeSystem
import Testing

@testable import SharedSuite

@Suite struct GroupContainerTests {
    @Test func location_linuxDefault_usesXDGThenLocalShare() throws {
        #if os(Linux)
            let plain = try GroupContainer(environment: Environment(["HOME": "/home/u"]))
            #expect(plain.path == "/home/u/.local/share/group.org.extensionbridge.shared")
            let xdg = try GroupContainer(
                groupID: "group.x", environment: Environment(["HOME": "/h", "XDG_DATA_HOME": "/d"]))
            #expect(xdg.path == "/d/group.x")
        #endif
    }

    @Test func location_override_winsOverHome() throws {
        let c = try GroupContainer(environment: Environment(["HOME": "/h", "EXTENSION_BRIDGE_CONTAINER": "/c"]))
        #expect(c.path == "/c")
        #expect(c.suitePath == "/c/suite.json")
    }

    @Test func location_noHome_isAClearError() {
        #expect(throws: SuiteError.noHome) { try GroupContainer(environment: Environment([:])) }
    }

    @Test(arguments: ["", ".hidden", "a/b", "../x", "sp ace", "nul\u{0}", "-x", "--help", "a\nb", "a\u{2028}"])
    func groupID_invalid_isRefused(id: String) {
        #expect(throws: SuiteError.invalidGroupID(id)) { try GroupContainer.validate(groupID: id) }
    }
}
