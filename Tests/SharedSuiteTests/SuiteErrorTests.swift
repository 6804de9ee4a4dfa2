import BridgeSystem
import Testing

@testable import SharedSuite

@Suite struct SuiteErrorTests {
    /// Each error says what is wrong and the next step a person takes.
    @Test func descriptions_nameTheProblemAndTheNextStep() {
        #expect(
            SuiteError.corrupt(path: "/c/suite.json", reason: "not JSON").description
                == "the suite file /c/suite.json is unreadable: not JSON. Nothing was changed; "
                + "run `extension-bridge repair` to move it aside, keeping every key that still reads")
        #expect(
            SuiteError.newerFormat(path: "/c/suite.json", version: 2, supported: 1).description.hasSuffix(
                "upgrade ExtensionBridge (the file was left as it is)"))
        #expect(
            SuiteError.lockTimeout(path: "/c/.lock", seconds: 5).description.contains("/c/.lock for more than 5.0 s"))
        #expect(SuiteError.invalidGroupID("-x").description.contains("'-x'"))
        #expect(SuiteError.noHome.description.contains("EXTENSION_BRIDGE_CONTAINER"))
        #expect(
            SuiteError.queueFull(items: 3, bytes: 10, maxItems: 3, maxBytes: 100).description.hasSuffix(
                "run `extension-bridge queue drain` to empty it"))
        #expect(
            SuiteError.contentTooLarge(size: 9, limit: 8).description
                == "the item is 9 bytes, over the limit of 8 bytes per item")
        #expect(SuiteError.itemBeingHandedOver(id: "i1").description.hasPrefix("item i1 is being handed over"))
        let io = SystemError("write", "/c/suite.json", code: Errno.noSpace)
        #expect(SuiteError.io(io).description == io.description)
    }

    @Test func wrap_turnsASystemErrorIntoIO() {
        let failure = SystemError("open", "x", code: Errno.notFound)
        #expect(throws: SuiteError.io(failure)) { try SuiteError.wrap { () throws(SystemError) in throw failure } }
        #expect((try? SuiteError.wrap { () throws(SystemError) in 7 }) == 7)
    }
}
