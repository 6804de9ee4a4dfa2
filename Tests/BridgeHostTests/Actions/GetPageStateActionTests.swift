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

    /// Issue 28, finding 15: switched off, any content script may ask, so
    /// the reply carries neither the rules nor their version.
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

    @Test func anEntryBiggerThanAPage_isCountedUndeliverable_notBreakingTheRest() {
        var words: [String: SuiteValue] = [:]
        for i in 0..<10 { words["w\(i)"] = .string(String(repeating: "y", count: 300)) }
        words["huge"] = .string(String(repeating: "z", count: 5_000))
        let snapshot = SuiteSnapshot(values: ["vocabulary": .dictionary(words)])
        let split = RulesPages.split(PageState.indexedRules(snapshot), budget: 1_000)
        #expect(split.undeliverable == 1)
        var seen = 0
        for page in split.pages {
            #expect(page.bytes.count <= 1_000)
            seen += page.value["vocabulary"]?.objectValue?.count ?? 0
        }
        #expect(seen == 10)
    }

    @Test func version_followsTheRules() {
        let a = SuiteSnapshot(values: ["vocabulary": .dictionary(["blue": .string("blauw")])])
        let b = SuiteSnapshot(values: ["vocabulary": .dictionary(["blue": .string("bleu")])])
        let va = RulesPages.split(PageState.indexedRules(a), budget: 1_000).version
        let vb = RulesPages.split(PageState.indexedRules(b), budget: 1_000).version
        #expect(va != vb)
        #expect(va == RulesPages.split(PageState.indexedRules(a), budget: 1_000).version)
    }

    /// Pages are runs of entries copied from the rules' own bytes (indexed as
    /// they were written): each page must be the writer's bytes of its
    /// entries, escapes and non-ASCII keys included, and together the pages
    /// hold every entry once, in key order.
    @Test func pagesCutFromTheIndexedBytes_areTheWritersBytesOfTheirEntries() throws {
        var words: [String: SuiteValue] = [
            "quote \" in": .string("a\\b"), "blå": .string("blue \u{1F499}"), "__proto__": .string("p"),
            "tab\there": .string("line\nbreak"), "Zebra": .string("z"), "": .string("empty word"), "n": .int(3),
        ]
        for i in 0..<200 { words["w\(i)"] = .string(String(repeating: "v", count: i % 17)) }
        let snapshot = SuiteSnapshot(values: ["vocabulary": .dictionary(words)])
        let rules = PageState.indexedRules(snapshot)
        let entries = PageState.entries(of: snapshot)
        #expect(rules.members.count == entries.count)
        #expect(rules.json == PageState.encodedRules(snapshot))
        #expect(entries.count == words.count - 2, "the empty word and the number do not count")
        let split = RulesPages.split(rules, budget: 300)
        #expect(split.pages.count > 5)
        var keys: [String] = []
        for page in split.pages {
            #expect(page.bytes.count <= 300)
            #expect(JSONWriter.bytes(page.value) == page.bytes)
            let vocabulary = try #require(page.value["vocabulary"]?.objectValue)
            keys += vocabulary.keys.sorted(by: JSONWriter.utf8Precedes)
        }
        #expect(keys == entries.map(\.word))
    }
}
