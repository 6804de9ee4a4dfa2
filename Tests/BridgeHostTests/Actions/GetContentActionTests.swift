import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

@Suite struct GetContentActionTests {
    @Test func getContent_returnsRulesAndOnlyThisURLsItems() throws {
        let (endpoint, _, queue) = makeEndpoint([
            "extensionEnabled": .bool(true),
            "vocabulary": .dictionary(["blue": .string("blauw"), "bad": .int(1)]),
        ])
        _ = try queue.append(url: "https://a/", title: "A", content: String(repeating: "x", count: 5000), source: "s")
        _ = try queue.append(url: "https://b/", title: nil, content: "other", source: "s")
        let reply = endpoint.handle(["action": "getContent", "url": "https://a/"])
        #expect(reply["status"] == "success")
        #expect(reply["enabled"] == true)
        #expect(reply["rules"] == ["vocabulary": ["blue": "blauw"]])
        let items = reply["items"]?.arrayValue ?? []
        #expect(items.count == 1)
        #expect(items.first?["title"] == "A")
        #expect(items.first?["contentBytes"] == 5000)
        #expect(items.first?["excerpt"]?.stringValue?.utf8.count == HostLimits.excerptBytes)
    }

    /// The seed's `data` was a placeholder; here it carries something real: the newest saved
    /// content for the URL.
    @Test func getContent_seedDataIsTheNewestSavedContent() throws {
        let (endpoint, _, queue) = makeEndpoint()
        #expect(endpoint.handle(["action": "getContent", "url": "https://a/"])["data"] == "")
        _ = try queue.append(url: "https://a/", title: nil, content: "first", source: "s")
        _ = try queue.append(url: "https://a/", title: nil, content: "second", source: "s")
        _ = try queue.append(url: "https://b/", title: nil, content: "other", source: "s")
        #expect(endpoint.handle(["action": "getContent", "url": "https://a/"])["data"] == "second")
    }

    @Test func getContent_withoutURL_isInvalid() {
        let (endpoint, _, _) = makeEndpoint()
        #expect(endpoint.handle(["action": "getContent"])["code"] == "invalid_request")
    }

    @Test func getContent_corruptSuite_answersSuiteUnreadable() {
        let (endpoint, suite, _) = makeEndpoint()
        suite.failure = .corrupt(path: "/x/suite.json", reason: "not JSON")
        let reply = endpoint.handle(["action": "getContent", "url": "u"])
        #expect(reply["code"] == "suite_unreadable")
        #expect(reply["message"]?.stringValue?.contains("extension-bridge repair") == true)
    }

    /// Limits are UTF-8 bytes, not Characters. One "character" of combining marks can
    /// be megabytes; 50 such items for one URL still give a getContent reply
    /// within its documented budget, and a megabyte id cannot make the error
    /// reply itself too large.
    @Test func getContent_staysWithinItsByteBudget_whateverWasSaved() throws {
        let (endpoint, _, queue) = makeEndpoint()
        let oneCharacter = "e" + String(repeating: "\u{301}", count: 200_000)  // 400 KB, one Character
        for _ in 0..<HostLimits.maxItemsPerPage + 5 {
            _ = try queue.append(
                url: "https://a/", title: oneCharacter + "\u{1b}", content: oneCharacter + oneCharacter, source: "s")
        }
        let reply = try endpoint.checkedReply(to: #"{"action":"getContent","url":"https://a/"}"#)
        #expect(reply["status"] == "success")
        let items = reply["items"]?.arrayValue ?? []
        #expect(items.count == HostLimits.maxItemsPerPage)
        for item in items {
            #expect((item["excerpt"]?.stringValue?.utf8.count ?? .max) <= HostLimits.excerptBytes)
            #expect((item["title"]?.stringValue?.utf8.count ?? .max) <= HostLimits.titleBytes)
        }
        #expect(JSONWriter.bytes(reply).count < 50 * 13 * 1024)
        let longID = String(repeating: "\u{301}", count: 600_000)  // 1.2 MB
        let error = try endpoint.checkedReply(to: #"{"action":"nope","id":"\#(longID)"}"#)
        #expect(error["status"] == "error")
    }
}
