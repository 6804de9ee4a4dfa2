import BridgeJSON
import BridgeProtocol
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

@Suite struct GetPageStateActionTests {
    static func vocabulary(_ count: Int, valueLength: Int = 8) -> SuiteValue {
        var words: [String: SuiteValue] = [:]
        for i in 0..<count {
            words["word\(i)"] = .string("w\(i)" + String(repeating: "x", count: max(0, valueLength - 2)))
        }
        return .dictionary(words)
    }

    @Test func smallRules_comeWholeAsPageZeroOfOne_withTheHostsEnabledRule() {
        let (endpoint, _, _) = makeEndpoint([
            "extensionEnabled": .bool(true), "user_defaults_suite_enabled": .bool(false),
            "vocabulary": .dictionary(["blue": .string("blauw")]),
        ])
        let reply = endpoint.handle(["action": "getPageState", "id": 3])
        #expect(reply["status"] == "success")
        #expect(reply["id"] == 3)
        // One rule for "enabled": extensionEnabled, whatever the seed's legacy key says.
        #expect(reply["enabled"] == true)
        #expect(reply["rules"] == ["vocabulary": ["blue": "blauw"]])
        #expect(reply["page"] == 0)
        #expect(reply["pages"] == 1)
        #expect(reply["undeliverable"] == 0)
        #expect(reply["rulesVersion"]?.stringValue?.count == 16)
        #expect(reply["items"] == nil)
    }

    /// Switched off, any content script may ask (a page's own script can reach one), so
    /// the reply carries neither the rules nor their version: the app's vocabulary stays private.
    @Test func switchedOff_carriesNoRulesAndNoVersion() {
        let (endpoint, _, _) = makeEndpoint([
            "extensionEnabled": .bool(false), "vocabulary": .dictionary(["blue": .string("blauw")]),
        ])
        let reply = endpoint.handle(["action": "getPageState"])
        #expect(reply["status"] == "success")
        #expect(reply["enabled"] == false)
        #expect(reply["rules"] == ["vocabulary": [:]])
        #expect(reply["rulesVersion"] == "")
        #expect(reply["pages"] == 1)
        #expect(endpoint.handle(["action": "getPageState", "page": 1])["code"] == "invalid_request")
    }

    @Test func neverReadsTheQueue() {
        let (endpoint, _, queue) = makeEndpoint(["extensionEnabled": .bool(true)])
        queue.failure = .queueFull(items: 1, bytes: 1, maxItems: 1, maxBytes: 1)
        let reply = endpoint.handle(["action": "getPageState"])
        #expect(reply["status"] == "success")
        #expect(reply["rules"] == ["vocabulary": [:]])
        #expect(reply["enabled"] == true)
    }

    @Test func badPage_isInvalidRequest() {
        let (endpoint, _, _) = makeEndpoint()
        #expect(endpoint.handle(["action": "getPageState", "page": -1])["code"] == "invalid_request")
        #expect(endpoint.handle(["action": "getPageState", "page": "1"])["code"] == "invalid_request")
        let beyond = endpoint.handle(["action": "getPageState", "page": 1])
        #expect(beyond["code"] == "invalid_request")
        #expect(beyond["pages"] == 1)
    }

    /// Rules over the reply limit (64 KiB here, to keep the test quick under
    /// the sanitizers; the end-to-end test uses the real 1 MiB): every page's
    /// reply fits, the pages together are the whole vocabulary, all with one version.
    @Test func largeRules_comeInPagesUnderTheLimit_thatReassembleExactly() throws {
        let values: [String: SuiteValue] = ["extensionEnabled": .bool(true), "vocabulary": Self.vocabulary(6_000)]
        let limit = 65_536
        let (endpoint, _, _) = makeEndpoint(values, maxReplyBytes: limit)
        let first = endpoint.handle(["action": "getPageState"])
        let pages = try #require(first["pages"]?.intValue)
        #expect(pages > 1)
        var words: [String: JSONValue] = [:]
        for page in 0..<pages {
            var body = JSONWriter.bytes(["action": "getPageState", "page": .int(page), "id": 1])
            let frame = endpoint.respond(to: &body).frame
            #expect(frame.bytes.count <= limit + 4)
            let reply = try JSONParser.parse(frame.body)
            #expect(reply["rulesVersion"] == first["rulesVersion"])
            for (key, value) in reply["rules"]?["vocabulary"]?.objectValue ?? [:] {
                #expect(words[key] == nil, "\(key) is on one page only")
                words[key] = value
            }
        }
        #expect(words.count == 6_000)
        #expect(words["word5999"] == "w5999xxxxxx")
    }
}
