import BridgeJSON
import SharedSuite
import Testing

@testable import BridgeHost

@Suite struct RulesPagesTests {
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

    /// Rules that fit one page go whole, without an index; the budget leaves room for the rest
    /// of a reply and never drops below one small entry.
    @Test func whole_onlyWhenTheRulesFit_andTheBudgetKeepsRoomForTheReply() {
        let rules = PageState.encodedRules(SuiteSnapshot(values: ["vocabulary": .dictionary(["a": .string("b")])]))
        #expect(RulesPages.whole(rules, budget: rules.bytes.count)?.pages == [rules])
        #expect(RulesPages.whole(rules, budget: rules.bytes.count - 1) == nil)
        #expect(RulesPages.budget(forReplyLimit: 1_048_576) == 1_048_576 - RulesPages.replyOverhead)
        #expect(RulesPages.budget(forReplyLimit: 10) == 64)
    }

    /// The version the extension compares is FNV-1a 64 of the rules' bytes, 16 hex digits.
    @Test func fnv1a_isTheStandardHash_in16HexDigits() {
        #expect(RulesPages.fnv1a([]) == "cbf29ce484222325")
        #expect(RulesPages.fnv1a(Array("a".utf8)) == "af63dc4c8601ec8c")
        #expect(RulesPages.fnv1a(Array("foobar".utf8)) == "85944171f73967e8")
    }
}
