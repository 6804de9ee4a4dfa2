import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

/// The one page-state contract: the push is page 0 of `getPageState`, one
/// cache keyed by the change token, one rule for which entries count.
@Suite struct PageStateTests {
    /// The page-state fields of a reply or an event (what a background applies).
    static func pageFields(_ json: JSONValue) -> [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        for key in ["enabled", "page", "pages", "rules", "rulesVersion", "undeliverable"] { fields[key] = json[key] }
        return fields
    }

    @Test(arguments: [true, false])
    func thePush_isPageZeroOfGetPageState_andTheSettings(enabled: Bool) throws {
        let (endpoint, suite, _) = makeEndpoint([
            "extensionEnabled": .bool(!enabled), "extensionTheme": .string("dark \"night\""),
            "vocabulary": .dictionary(["blue": .string("blauw"), "tab\there": .string("é\n")]),
        ])
        endpoint.startChangeNotifications()
        suite.values["extensionEnabled"] = .bool(enabled)
        let event = try JSONParser.parse(try #require(endpoint.changeNotification()).body)
        let reply = endpoint.handle(["action": "getPageState"])
        #expect(event["event"] == "pageState")
        #expect(Self.pageFields(event) == Self.pageFields(reply))
        #expect(event["page"] == 0)
        #expect(event["pages"] == 1)
        #expect(event["settings"] == endpoint.handle(["action": "getSettings"])["settings"])
        #expect(event["rules"]?["vocabulary"]?.objectValue?.count == (enabled ? 2 : 0))
    }

    /// Rules of more pages than one: the push is still page 0, rules and all;
    /// the extension asks only for the pages after it.
    @Test func rulesOverOneFrame_arePushedAsTheirPageZero() throws {
        let (endpoint, suite, _) = makeEndpoint(["extensionEnabled": .bool(true)], maxReplyBytes: 4_096)
        endpoint.startChangeNotifications()
        suite.values["vocabulary"] = GetPageStateActionTests.vocabulary(500)
        let event = try JSONParser.parse(try #require(endpoint.changeNotification()).body)
        let reply = endpoint.handle(["action": "getPageState"])
        #expect(event["event"] == "pageState")
        #expect((event["pages"]?.intValue ?? 0) > 1)
        #expect(Self.pageFields(event) == Self.pageFields(reply))
        #expect((event["rules"]?["vocabulary"]?.objectValue?.count ?? 0) > 0)
    }

    /// Settings too long to go with page 0 in one frame (a theme of 3 kB
    /// under a 4 kB limit): the push names the state without its rules.
    @Test func settingsThatLeaveNoRoomForPageZero_pushTheStateWithoutItsRules() throws {
        let theme = String(repeating: "t", count: 3_000)
        let (endpoint, suite, _) = makeEndpoint(
            ["extensionEnabled": .bool(true), "extensionTheme": .string(theme)], maxReplyBytes: 4_096)
        endpoint.startChangeNotifications()
        suite.values["vocabulary"] = GetPageStateActionTests.vocabulary(500)
        let event = try JSONParser.parse(try #require(endpoint.changeNotification()).body)
        let reply = endpoint.handle(["action": "getPageState"])
        #expect(event["event"] == "pageState")
        #expect(event["rules"] == nil)
        #expect(event["settings"]?["theme"] == .string(theme))
        #expect(event["pages"] == reply["pages"])
        #expect(event["rulesVersion"] == reply["rulesVersion"])
    }

    @Test func oneCache_keyedByTheChangeToken() {
        let suite = MemorySuiteStore(["extensionEnabled": .bool(true), "vocabulary": .dictionary(["a": .string("b")])])
        let state = PageState()
        let first = state.rules(of: try! suite.snapshot())
        // A snapshot with the same token but other values (impossible from a real
        // suite) shows that the cache answers by token, without encoding again.
        let sameToken = SuiteSnapshot(values: [:], version: try! suite.snapshot().version)
        #expect(state.rules(of: sameToken) == first)
        #expect(state.pages(of: sameToken, budget: 1_000).pages.count == 1)
        suite.values["vocabulary"] = .dictionary(["a": .string("c")])
        let second = state.rules(of: try! suite.snapshot())
        #expect(second != first)
        #expect(second.value == ["vocabulary": ["a": "c"]])
    }

    /// The rule for which entries count is the same for the rules pages get
    /// and for `transform`: an empty word and a non-string value are nothing.
    @Test func transform_andThePages_countTheSameEntries() {
        let (endpoint, _, _) = makeEndpoint([
            "extensionEnabled": .bool(true),
            "vocabulary": .dictionary(["": .string("X"), "red": .int(1), "blue": .string("blauw")]),
        ])
        #expect(endpoint.handle(["action": "getPageState"])["rules"] == ["vocabulary": ["blue": "blauw"]])
        #expect(
            endpoint.handle(["action": "getContent", "url": "https://a.example/"])["rules"]
                == ["vocabulary": ["blue": "blauw"]])
        #expect(endpoint.handle(["action": "transform", "text": "red blue"])["text"] == "red blauw")
    }

    /// Which entries count has one owner on the host, `PageState.entries`: the
    /// rules a page gets are exactly those entries, whether they are copied
    /// from the suite file (a vocabulary the CLI wrote: every member a string
    /// under a non-empty ASCII key, in order) or decoded and written again (any
    /// other: here an empty word, a number, a non-ASCII word). A second rule in
    /// the copy path that drifted from it fails here.
    @Test func theRulesAPageGets_areExactlyTheEntriesThatCount_copiedOrWritten() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let plain: [String: SuiteValue] = ["blue": .string("blauw"), "ice cream": .string(""), "z": .string("\"\n")]
        var mixed = plain
        mixed[""] = .string("empty")
        mixed["n"] = .int(3)
        mixed["blå"] = .string("blue")
        for (index, vocabulary) in [plain, mixed].enumerated() {
            let suite = Suite(container: GroupContainer(path: tmp.path + "/c\(index)"))
            try suite.update { values in
                values["extensionEnabled"] = .bool(true)
                values["vocabulary"] = .dictionary(vocabulary)
            }
            let snapshot = try suite.snapshot()
            let copied = snapshot.encodedStringDictionary("vocabulary", nestedUnder: "vocabulary") != nil
            #expect(copied == (index == 0), "the plain vocabulary is copied, the mixed one written")
            var expected: [String: JSONValue] = [:]
            for entry in PageState.entries(of: snapshot) { expected[entry.word] = .string(entry.replacement) }
            #expect(PageState().rules(of: snapshot).value == ["vocabulary": .object(expected)])
            let pages = PageState().pages(of: snapshot, budget: 1_000).pages
            #expect(pages.map(\.value) == [["vocabulary": .object(expected)]])
        }
    }

    /// A vocabulary copied from the suite file (indexed while copied) and one
    /// decoded and written (indexed while written) give the same pages.
    @Test func copiedAndWrittenRules_giveTheSamePages() throws {
        var words: [String: String] = [:]
        for i in 0..<300 { words["k\(i)"] = "v\\\"\(i)\n" }
        let value = JSONValue.object(words.mapValues { .string($0) })
        let text = JSONWriter.prettyBytes(value)
        var storage: [UInt8] = []
        let copied = try #require(
            EncodedJSON.compactIndexing(checked: text[...], wrappedAs: "vocabulary", storage: &storage))
        let written = PageState.indexedRules(
            SuiteSnapshot(values: ["vocabulary": .dictionary(words.mapValues { .string($0) })]))
        #expect(copied == written)
        #expect(RulesPages.split(copied, budget: 700) == RulesPages.split(written, budget: 700))
        #expect(RulesPages.split(copied, budget: 700).pages.count > 3)
    }

    /// A vocabulary read from a real suite file is copied, not decoded, and
    /// indexed (copied again) only when it must be cut into pages — which
    /// then hold every entry once, in order.
    @Test func rulesFromASuiteFile_areIndexedOnlyToBeCut() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let suite = Suite(container: GroupContainer(path: tmp.path + "/c"))
        var words: [String: String] = [:]
        for i in 0..<400 { words["w\(i)"] = "r\(i) \"q\"" }
        try suite.update { values in
            values["extensionEnabled"] = .bool(true)
            values["vocabulary"] = .dictionary(words.mapValues { .string($0) })
        }
        let snapshot = try suite.snapshot()
        let state = PageState()
        let whole = state.rules(of: snapshot)
        #expect(snapshot.encodedStringDictionary("vocabulary", nestedUnder: "vocabulary") == whole, "copied")
        #expect(whole.value == ["vocabulary": .object(words.mapValues { .string($0) })])
        let split = state.pages(of: snapshot, budget: 2_000)
        #expect(split.pages.count > 3)
        var keys: [String] = []
        for page in split.pages {
            #expect(page.bytes.count <= 2_000)
            #expect(JSONWriter.bytes(page.value) == page.bytes)
            keys += (page.value["vocabulary"]?.objectValue ?? [:]).keys.sorted(by: JSONWriter.utf8Precedes)
        }
        #expect(keys == words.keys.sorted(by: JSONWriter.utf8Precedes))
        #expect(snapshot.indexedStringDictionary("vocabulary", nestedUnder: "vocabulary")?.members.count == 400)
    }

    /// docs/PROTOCOL.md's examples of `hello`, `getPageState` and the two
    /// events, parsed: the members each shows are those the host sends, and
    /// `hello`'s `resendSafe` is the built-in actions' own list.
    @Test func protocolDocument_showsWhatTheHostSends() throws {
        let bytes = try #require(try? FileSystem.readFile(Repository.path("docs/PROTOCOL.md")))
        let text = String(decoding: bytes, as: UTF8.self)
        /// The JSON object that starts at `marker` in the document (it may span lines).
        func example(_ marker: String) throws -> JSONValue {
            let start = try #require(text.range(of: marker)).lowerBound
            let block = text[start...].prefix { $0 != "`" }
            return try JSONParser.parse(Array(block.utf8))
        }
        func keys(_ value: JSONValue?) -> [String] { (value?.objectValue?.keys).map { $0.sorted() } ?? [] }

        let (endpoint, suite, _) = makeEndpoint(
            ["extensionEnabled": .bool(true), "vocabulary": .dictionary(["blue": .string("blauw")])])
        let hello = endpoint.handle(["action": "hello", "id": 1])
        let documentedHello = try example(#"{"status":"success","id":1,"protocolVersion""#)
        #expect(keys(documentedHello) == keys(hello))
        #expect(documentedHello["resendSafe"] == hello["resendSafe"])
        #expect(
            keys(try example(#"{"status":"success","enabled":true,"rules""#))
                == keys(endpoint.handle(["action": "getPageState"])))

        endpoint.startChangeNotifications()
        suite.values["vocabulary"] = .dictionary(["blue": .string("bleu")])
        let pushed = try JSONParser.parse(try #require(endpoint.changeNotification()).body)
        #expect(keys(try example(#"{"event":"pageState""#)) == keys(pushed))
    }

    @Test func hello_listsTheActionsThatDeclareThemselvesResendSafe() {
        struct Append: BridgeAction {
            let name = "append"
            func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply { .success() }
        }
        struct Read: BridgeAction {
            let name = "read"
            var resendSafe: Bool { true }
            func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply { .success() }
        }
        let (endpoint, _, _) = makeEndpoint(actions: BuiltInActions.all + [Append(), Read()])
        let hello = endpoint.handle(["action": "hello"])
        #expect(
            hello["resendSafe"]
                == [
                    "getContent", "getPageState", "getSettings", "hello", "queueCount", "read", "setSettings",
                    "transform",
                ])
    }

    /// The settings are written field by field on the hot path; they must be
    /// the writer's bytes for the same value, whatever the theme holds.
    @Test(arguments: ["auto", "dark", "", "quote \" and \\ backslash", "line\nbreak \u{1}", "blå 🌙", "\u{2028}"])
    func encodedSettings_areTheWritersBytes(theme: String) {
        for values: [String: SuiteValue] in [
            [:], ["extensionEnabled": .bool(true), "extensionTheme": .string(theme)],
            ["extensionEnabled": .bool(false), "extensionTheme": .string(theme)], ["extensionTheme": .int(1)],
        ] {
            let snapshot = SuiteSnapshot(values: values)
            #expect(PageState.encodedSettings(snapshot) == EncodedJSON(PageState.settingsValue(snapshot)))
        }
    }
}
