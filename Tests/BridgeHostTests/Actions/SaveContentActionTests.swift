import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

/// `saveContent`'s kinds, schemes and idempotency key, and `removeItem` (undo).
@Suite struct SaveContentActionTests {
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

    @Test func saveContent_recordsKindAndThePageItCameFrom() {
        let (endpoint, _, queue) = makeEndpoint()
        let link = endpoint.handle([
            "action": "saveContent", "url": "https://b.example/x", "title": "B", "content": "B", "kind": "link",
            "pageUrl": "https://a.example/",
        ])
        #expect(link["status"] == "success" && link["kind"] == "link")
        let selection = endpoint.handle([
            "action": "saveContent", "url": "https://a.example/", "content": "picked words", "kind": "selection",
            "pageUrl": "https://a.example/",
        ])
        #expect(selection["kind"] == "selection")
        #expect(queue.items.map(\.kind) == ["link", "selection"])
        #expect(queue.items.map(\.pageURL) == ["https://a.example/", "https://a.example/"])
        #expect(queue.items[1].content == "picked words")
    }

    @Test func saveContent_badKindPageUrlOrKey_isRefused_andNothingQueued() {
        let (endpoint, _, queue) = makeEndpoint()
        let base: [String: JSONValue] = ["action": "saveContent", "url": "https://a/", "content": "c"]
        for (field, value): (String, JSONValue) in [
            ("kind", "video"), ("kind", 1), ("pageUrl", 3), ("key", ""), ("key", 7),
            ("key", .string(String(repeating: "k", count: 129))),
            // 43 three-byte characters: 129 UTF-8 bytes, 43 Characters.
            ("key", .string(String(repeating: "€", count: 43))),
        ] {
            var request = base
            request[field] = value
            #expect(endpoint.handle(.object(request))["code"] == "invalid_request", "\(field) = \(value)")
        }
        #expect(queue.items.isEmpty)
    }

    @Test(arguments: [
        "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<b>x</b>", " https://a/", "\u{1}javascript:x",
        "about:blank", "chrome://settings", "blob:https://a/1", "no-scheme", ":nothing", "",
    ])
    func saveContent_otherSchemes_areRefusedWithACode(url: String) {
        let (endpoint, _, queue) = makeEndpoint()
        let reply = endpoint.handle(["action": "saveContent", "url": .string(url), "content": "c"])
        #expect(reply["code"] == "url_scheme_not_allowed")
        #expect(reply["field"] == "url")
        #expect(reply["message"]?.stringValue?.contains("http:, https: and file:") == true)
        let viaPage = endpoint.handle([
            "action": "saveContent", "url": "https://a/", "content": "c", "pageUrl": .string(url),
        ])
        #expect(viaPage["code"] == "url_scheme_not_allowed")
        #expect(viaPage["field"] == "pageUrl")
        #expect(queue.items.isEmpty)
    }

    /// A control character inside a URL (after an allowed scheme) reached the queue, and an app
    /// reading `queue list --json` got it raw: refused, as the browser would never send one.
    @Test(arguments: [
        "https://example.org/a\u{1b}]0;PWNED\u{7}", "https://a/\nb", "http://a/\u{85}", "https://a/\u{202e}txt",
    ])
    func saveContent_aURLHoldingAControlCharacter_isRefused(url: String) {
        let (endpoint, _, queue) = makeEndpoint()
        let reply = endpoint.handle(["action": "saveContent", "url": .string(url), "content": "c"])
        #expect(reply["code"] == "invalid_request" && reply["field"] == "url", "\(reply)")
        let viaPage = endpoint.handle([
            "action": "saveContent", "url": "https://a/", "content": "c", "pageUrl": .string(url),
        ])
        #expect(viaPage["code"] == "invalid_request" && viaPage["field"] == "pageUrl")
        #expect(queue.items.isEmpty)
    }

    @Test(arguments: ["http://a/", "HTTPS://A/", "file:///home/me/a.html"])
    func saveContent_httpHttpsFile_areQueued(url: String) {
        let (endpoint, _, queue) = makeEndpoint()
        #expect(endpoint.handle(["action": "saveContent", "url": .string(url), "content": "c"])["status"] == "success")
        #expect(queue.items.count == 1)
    }

    @Test func saveContent_resentWithTheSameKey_queuesOnce_andAnswersTheSameId() {
        let (endpoint, _, queue) = makeEndpoint()
        let request: JSONValue = [
            "action": "saveContent", "url": "https://a/", "content": "c", "kind": "selection", "key": "k-1",
        ]
        let first = endpoint.handle(request)
        let again = endpoint.handle(request)
        #expect(first["duplicate"] == false)
        #expect(again["duplicate"] == true)
        #expect(first["itemId"] == again["itemId"])
        #expect(queue.items.count == 1)
        #expect(
            endpoint.handle(["action": "saveContent", "url": "https://a/", "content": "c", "key": "k-2"])["duplicate"]
                == false)
        #expect(queue.items.count == 2)
    }

    /// A duplicate's reply names the earlier item, but
    /// says it added nothing (`added: false`, not "Content saved"): a client
    /// must not offer to undo it.
    @Test func saveContent_duplicate_saysItAddedNothing() {
        let (endpoint, _, queue) = makeEndpoint()
        let request: JSONValue = ["action": "saveContent", "url": "https://a/", "content": "c", "key": "k"]
        let first = endpoint.handle(request)
        let again = endpoint.handle(request)
        #expect(first["added"] == true)
        #expect(first["message"] == "Content saved")
        #expect(again["duplicate"] == true)
        #expect(again["added"] == false)
        #expect(again["message"] == "Already saved: nothing added")
        #expect(again["itemId"] == first["itemId"])
        #expect(queue.items.count == 1)
    }
}
