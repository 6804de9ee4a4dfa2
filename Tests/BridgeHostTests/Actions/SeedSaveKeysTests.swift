import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

@Suite struct SeedSaveKeysTests {
    /// The seed's save keys and the share flow's follow each save, but only
    /// when the suite stores them (an app opts in by creating them).
    @Test func saveContent_updatesTheSeedKeysThatAreStored() throws {
        let (plain, plainSuite, _) = makeEndpoint(["extensionEnabled": .bool(true)])
        #expect(plain.handle(["action": "saveContent", "url": "https://a/", "content": "c"])["status"] == "success")
        #expect(plainSuite.values == ["extensionEnabled": .bool(true)])  // nothing added
        let (endpoint, suite, _) = makeEndpoint([
            "safari_saved_url": .string(""), "safari_saved_content": .string(""), "lastSharedURL": .string(""),
        ])
        #expect(
            endpoint.handle(["action": "saveContent", "url": "https://a/", "content": "text"])["status"] == "success")
        #expect(suite.values["safari_saved_url"] == .string("https://a/"))
        #expect(suite.values["safari_saved_content"] == .string("text"))
        #expect(suite.values["lastSharedURL"] == .string("https://a/"))
        #expect(suite.values["lastSharedText"] == nil)
        let big = String(repeating: "x", count: SuiteKeys.seedSavedContentMaxBytes + 1)
        #expect(
            endpoint.handle(["action": "saveContent", "url": "https://big/", "content": .string(big)])["status"]
                == "success")
        #expect(suite.values["safari_saved_content"] == .string(""))  // too large for the suite: in the queue only
        #expect(suite.values["safari_saved_url"] == .string("https://big/"))
        // A suite that cannot be written does not fail the save.
        suite.failure = .lockTimeout(path: "/x", seconds: 5)
        #expect(endpoint.handle(["action": "saveContent", "url": "https://c/", "content": "c"])["status"] == "success")
    }
}
