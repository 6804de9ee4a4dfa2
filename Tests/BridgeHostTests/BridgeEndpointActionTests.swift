import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

func makeEndpoint(
    _ values: [String: SuiteValue] = [:], caller: Caller = Caller(kind: .chromium, identity: "chrome-extension://abc/"),
    actions: [BridgeAction] = BuiltInActions.all, maxReplyBytes: Int = ProtocolLimits.maxReplyBytes
) -> (BridgeEndpoint, MemorySuiteStore, MemoryQueue) {
    let suite = MemorySuiteStore(values)
    let queue = MemoryQueue()
    let context = ActionContext(suite: suite, queue: queue, caller: caller, maxReplyBytes: maxReplyBytes)
    return (BridgeEndpoint(context: context, actions: actions), suite, queue)
}

extension BridgeEndpoint {
    /// The reply to `message` as the session gets it: through the frame path.
    func handle(_ message: JSONValue) -> JSONValue {
        var body = JSONWriter.bytes(message)
        let frame = respond(to: &body).frame
        return (try? JSONParser.parse(frame.body)) ?? .null
    }
}

@Suite struct BridgeEndpointActionTests {
    @Test func getSettings_defaults_matchSeedShape() {
        let (endpoint, _, _) = makeEndpoint()
        #expect(
            endpoint.handle(["action": "getSettings"]) == [
                "status": "success", "settings": ["enabled": false, "theme": "auto"],
            ])
    }

    @Test func getSettings_readsSuiteKeys_coercingAsUserDefaults_ignoringOtherTypes() {
        let (endpoint, _, _) = makeEndpoint(["extensionEnabled": .bool(true), "extensionTheme": .string("dark")])
        #expect(endpoint.handle(["action": "getSettings"])["settings"] == ["enabled": true, "theme": "dark"])
        // bool(forKey:) and string(forKey:) coerce: "yes" is true, 3 is "3".
        let (coerced, _, _) = makeEndpoint(["extensionEnabled": .string("yes"), "extensionTheme": .int(3)])
        #expect(coerced.handle(["action": "getSettings"])["settings"] == ["enabled": true, "theme": "3"])
        let (wrong, _, _) = makeEndpoint(["extensionEnabled": .array([]), "extensionTheme": .data([1])])
        #expect(wrong.handle(["action": "getSettings"])["settings"] == ["enabled": false, "theme": "auto"])
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

    @Test func saveContent_missingContentOrURL_givesSeedError() {
        let (endpoint, _, queue) = makeEndpoint()
        for request: JSONValue in [
            ["action": "saveContent", "url": "https://a/"], ["action": "saveContent", "content": "x"],
            ["action": "saveContent", "content": 1, "url": "https://a/"],
        ] {
            #expect(
                endpoint.handle(request)
                    == ["status": "error", "message": "Missing content or URL", "code": "missing_field"])
        }
        #expect(queue.items.isEmpty)
    }

    @Test func saveContent_appendsItemWithCaller_andRepliesWithId() {
        let (endpoint, _, queue) = makeEndpoint()
        let reply = endpoint.handle([
            "action": "saveContent", "url": "https://a/", "content": "text", "title": "T", "id": 7,
        ])
        #expect(
            reply == [
                "status": "success", "message": "Content saved", "itemId": "item-1", "id": 7, "kind": "page",
                "duplicate": false, "added": true,
            ])
        #expect(queue.items.count == 1)
        #expect(queue.items[0].source == "chrome-extension://abc/")
        #expect(queue.items[0].title == "T")
    }

    @Test func saveContent_badTitle_isRefused() {
        let (endpoint, _, queue) = makeEndpoint()
        let reply = endpoint.handle(["action": "saveContent", "url": "https://a/", "content": "c", "title": 5])
        #expect(reply["code"] == "invalid_request")
        #expect(queue.items.isEmpty)
    }

    @Test func saveContent_storageFailures_mapToStableCodes() {
        let (endpoint, _, queue) = makeEndpoint()
        let cases: [(SuiteError, String)] = [
            (.queueFull(items: 1, bytes: 1, maxItems: 1, maxBytes: 1), "queue_full"),
            (.contentTooLarge(size: 9, limit: 1), "content_too_large"),
            (.io(SystemError("write", "x", code: Errno.noSpace)), "storage_error"),
        ]
        for (failure, code) in cases {
            queue.failure = failure
            let reply = endpoint.handle(["action": "saveContent", "url": "https://a/", "content": "c"])
            #expect(reply["status"] == "error")
            #expect(reply["code"] == .string(code))
        }
    }

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

    /// #15: the seed's `data` carries something real: the newest saved content for the URL.
    @Test func getContent_seedDataIsTheNewestSavedContent() throws {
        let (endpoint, _, queue) = makeEndpoint()
        #expect(endpoint.handle(["action": "getContent", "url": "https://a/"])["data"] == "")
        _ = try queue.append(url: "https://a/", title: nil, content: "first", source: "s")
        _ = try queue.append(url: "https://a/", title: nil, content: "second", source: "s")
        _ = try queue.append(url: "https://b/", title: nil, content: "other", source: "s")
        #expect(endpoint.handle(["action": "getContent", "url": "https://a/"])["data"] == "second")
    }

    /// #15: the seed's save keys and the share flow's follow each save, but only
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

    /// One rule for "enabled" (#15): the legacy reply, getSettings, getContent and
    /// getPageState agree whatever the two keys hold; extensionEnabled is the
    /// source, the seed's key counts only when extensionEnabled is not stored.
    @Test(
        arguments: [
            (["user_defaults_suite_enabled": .bool(false), "extensionEnabled": .bool(true)], true),
            (["user_defaults_suite_enabled": .bool(true), "extensionEnabled": .bool(false)], false),
            (["user_defaults_suite_enabled": .bool(true)], true),
            (["user_defaults_suite_enabled": .string("YES")], true),
            (["extensionEnabled": .int(1)], true),
            (["extensionEnabled": .string("no"), "user_defaults_suite_enabled": .bool(true)], false),
            ([:], false),
        ] as [([String: SuiteValue], Bool)])
    func enabled_oneRuleForEveryReply(values: [String: SuiteValue], enabled: Bool) {
        let (endpoint, _, _) = makeEndpoint(values)
        #expect(endpoint.handle(["message": "request:enabled_status"]) == ["delivery:enabled_status": .bool(enabled)])
        #expect(endpoint.handle(["action": "getSettings"])["settings"]?["enabled"] == .bool(enabled))
        #expect(endpoint.handle(["action": "getContent", "url": "u"])["enabled"] == .bool(enabled))
        #expect(endpoint.handle(["action": "getPageState"])["enabled"] == .bool(enabled))
    }

    @Test func unknownAction_matchesSeedAndAddsCode() {
        let (endpoint, _, _) = makeEndpoint()
        #expect(
            endpoint.handle(["action": "frobnicate", "id": "r1"])
                == [
                    "status": "error", "code": "unknown_action", "error": "Unknown action: frobnicate",
                    "message": "Unknown action: frobnicate", "id": "r1",
                ])
        #expect(endpoint.handle(["nothing": 1])["error"] == "Unknown action: unknown")
    }

    @Test func hello_ofAnAppsHost_saysTheAppsNameAndVersion() {
        var context = ActionContext(
            suite: MemorySuiteStore([:]), queue: MemoryQueue(),
            caller: Caller(kind: .chromium, identity: "chrome-extension://abc/"))
        context.app = AppIdentity(name: "Linguisticat", version: "1.0.0")
        let reply = BridgeEndpoint(context: context, actions: BuiltInActions.all).handle(["action": "hello", "id": 1])
        #expect(reply["hostVersion"] == "1.0.0")
        #expect(reply["name"] == "Linguisticat")
        #expect(reply["bridgeVersion"] == .string(BridgeVersion.current))
        #expect(
            AppIdentity(name: "Linguisticat", version: "1.0.0").versionLine(program: "linguisticat-host")
                == "linguisticat-host 1.0.0 (Linguisticat, built on ExtensionBridge \(BridgeVersion.current))")
        #expect(
            AppIdentity.extensionBridge.versionLine(program: "extension-bridge-host")
                == "extension-bridge-host \(BridgeVersion.current)")
    }

    @Test func id_isEchoed_andBadIdsRefused() {
        let (endpoint, _, _) = makeEndpoint()
        #expect(endpoint.handle(["action": "getSettings", "id": "abc"])["id"] == "abc")
        #expect(endpoint.handle(["action": "getSettings", "id": 3.5])["id"] == 3.5)
        #expect(endpoint.handle(["action": "getSettings", "id": ["x"]])["code"] == "invalid_request")
        #expect(endpoint.handle(["message": "request:enabled_status", "id": ["x"]])["code"] == "invalid_request")
        #expect(endpoint.handle(["message": "request:enabled_status", "id": 4])["id"] == 4)
        #expect(
            endpoint.handle(["action": "getSettings", "id": .string(String(repeating: "x", count: 129))])["code"]
                == "invalid_request")
    }

    @Test func hello_reportsVersionsCallerActionsAndLimits() {
        let (endpoint, _, _) = makeEndpoint()
        let reply = endpoint.handle(["action": "hello", "id": 1])
        #expect(reply["status"] == "success")
        #expect(reply["protocolVersion"] == 1)
        #expect(reply["hostVersion"] == .string(BridgeVersion.current))
        #expect(reply["name"] == "ExtensionBridge")
        #expect(reply["bridgeVersion"] == .string(BridgeVersion.current))
        #expect(reply["caller"] == "chrome-extension://abc/")
        #expect(
            reply["actions"] == [
                "getContent", "getPageState", "getSecret", "getSettings", "hello", "queueCount", "removeItem",
                "saveContent", "setSettings", "transform",
            ])
        #expect(reply["group"] == .string(GroupContainer.defaultGroupID))
        #expect(reply["limits"] == ["maxRequestBytes": 67_108_864, "maxReplyBytes": 1_048_576])
    }

    @Test func setSettings_writesAllowedKeys_keepsLegacyKeyInStep() {
        let (endpoint, suite, _) = makeEndpoint(["user_defaults_suite_enabled": .bool(false)])
        let reply = endpoint.handle(["action": "setSettings", "settings": ["enabled": true, "theme": "dark"]])
        #expect(reply == ["status": "success", "settings": ["enabled": true, "theme": "dark"]])
        #expect(suite.values["extensionEnabled"] == .bool(true))
        #expect(suite.values["user_defaults_suite_enabled"] == .bool(true))
    }

    @Test(
        arguments: [
            ["action": "setSettings"], ["action": "setSettings", "settings": [:]],
            ["action": "setSettings", "settings": ["enabled": "yes"]],
            ["action": "setSettings", "settings": ["vocabulary": ["a": "b"]]],
            ["action": "setSettings", "settings": ["enabled": true, "other": 1]],
            // Issue 13: 65 bytes in 17 Characters (combining marks), and megabytes in one.
            ["action": "setSettings", "settings": ["theme": .string(String(repeating: "é\u{301}\u{302}", count: 13))]],
            [
                "action": "setSettings",
                "settings": ["theme": .string("e" + String(repeating: "\u{301}", count: 1_200_000))],
            ],
        ] as [JSONValue])
    func setSettings_badRequests_writeNothing(request: JSONValue) {
        let (endpoint, suite, _) = makeEndpoint()
        #expect(endpoint.handle(request)["code"] == "invalid_request")
        #expect(suite.values.isEmpty)
    }

    @Test func queueCount_countsItems() throws {
        let (endpoint, _, queue) = makeEndpoint()
        _ = try queue.append(url: "u", title: nil, content: "c", source: "s")
        #expect(endpoint.handle(["action": "queueCount"]) == ["status": "success", "count": 1])
    }

    @Test func nonObjectMessage_isRefused() {
        let (endpoint, _, _) = makeEndpoint()
        #expect(endpoint.handle([1, 2])["code"] == "not_an_object")
    }
}
