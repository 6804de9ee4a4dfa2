import SharedSuite
import Testing

@testable import BridgeCLI

@Suite struct EnableVerbTests {
    @Test func enableDisable_setExtensionEnabled() throws {
        let h = Harness()
        #expect(h.run("enable") == 0)
        #expect(try Suite(container: h.container).snapshot().bool("extensionEnabled") == true)
        #expect(h.run("disable") == 0)
        #expect(try Suite(container: h.container).snapshot().bool("extensionEnabled") == false)
    }
}
