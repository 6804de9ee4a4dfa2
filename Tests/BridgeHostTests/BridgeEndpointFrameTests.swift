import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

/// An app's own action, as the README and Examples/ show one.
struct EchoAction: BridgeAction {
    let name = "echo"
    func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        guard let text = request.string("text") else { return .error(.missingField, "echo needs a string text") }
        return .success(["text": .string(text), "caller": .string(context.caller.identity)])
    }
}

/// An action that answers more than a browser accepts.
struct HugeAction: BridgeAction {
    let name = "huge"
    func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        .success(["blob": .string(String(repeating: "x", count: 2_000_000))])
    }
}

@Suite struct BridgeEndpointFrameTests {
    func respond(_ endpoint: BridgeEndpoint, _ text: String) throws -> JSONValue {
        var body = Array(text.utf8)
        let frame = endpoint.respond(to: &body).frame
        #expect(body.isEmpty, "the body is released once parsed")
        #expect(frame.bodyLength == frame.bytes.count - 4)
        #expect(frame.bodyLength <= ProtocolLimits.maxReplyBytes)
        return try JSONParser.parse(frame.body)
    }

    @Test func badFrames_getDocumentedCodes() throws {
        let (endpoint, _, _) = makeEndpoint()
        #expect(try respond(endpoint, "{not json")["code"] == "invalid_json")
        #expect(try respond(endpoint, "[1]")["code"] == "not_an_object")
        #expect(try respond(endpoint, String(repeating: "[", count: 100))["code"] == "too_deep")
        var invalid: [UInt8] = [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]  // {"\xFF":1}
        let reply = try JSONParser.parse(endpoint.respond(to: &invalid).frame.body)
        #expect(reply["code"] == "invalid_utf8")
    }

    /// Issue 13: limits are UTF-8 bytes. One "character" of combining marks can
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
        let reply = try respond(endpoint, #"{"action":"getContent","url":"https://a/"}"#)
        #expect(reply["status"] == "success")
        let items = reply["items"]?.arrayValue ?? []
        #expect(items.count == HostLimits.maxItemsPerPage)
        for item in items {
            #expect((item["excerpt"]?.stringValue?.utf8.count ?? .max) <= HostLimits.excerptBytes)
            #expect((item["title"]?.stringValue?.utf8.count ?? .max) <= HostLimits.titleBytes)
        }
        #expect(JSONWriter.bytes(reply).count < 50 * 13 * 1024)
        let longID = String(repeating: "\u{301}", count: 600_000)  // 1.2 MB
        let error = try respond(endpoint, #"{"action":"nope","id":"\#(longID)"}"#)
        #expect(error["status"] == "error")
    }

    @Test func customAction_isRoutedListedByHello_andGetsTheCaller() throws {
        let (endpoint, _, _) = makeEndpoint(actions: BuiltInActions.all + [EchoAction()])
        let reply = try respond(endpoint, #"{"action":"echo","text":"hi","id":"e1"}"#)
        #expect(reply == ["status": "success", "text": "hi", "caller": "chrome-extension://abc/", "id": "e1"])
        #expect(try respond(endpoint, #"{"action":"echo"}"#)["code"] == "missing_field")
        let hello = try respond(endpoint, #"{"action":"hello"}"#)
        #expect(hello["actions"]?.arrayValue?.contains("echo") == true)
        #expect(endpoint.actionNames.contains("echo"))
    }

    @Test func laterActionReplacesEarlier_butHelloIsTheEndpoints() throws {
        struct FakeHello: BridgeAction {
            let name = "hello"
            func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
                .success(["fake": true])
            }
        }
        struct OtherSettings: BridgeAction {
            let name = "getSettings"
            func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
                .success(["mine": true])
            }
        }
        let (endpoint, _, _) = makeEndpoint(actions: BuiltInActions.all + [OtherSettings(), FakeHello()])
        #expect(try respond(endpoint, #"{"action":"getSettings"}"#)["mine"] == true)
        #expect(try respond(endpoint, #"{"action":"hello"}"#)["fake"] == nil)
        #expect(endpoint.actionNames.filter { $0 == "getSettings" }.count == 1)
    }

    @Test func replyOverTheLimit_becomesReplyTooLarge_withTheId() throws {
        let (endpoint, _, _) = makeEndpoint(actions: [HugeAction()])
        let reply = try respond(endpoint, #"{"action":"huge","id":"big"}"#)
        #expect(reply["code"] == "reply_too_large")
        #expect(reply["id"] == "big")
        #expect(reply["limit"] == .int(ProtocolLimits.maxReplyBytes))
    }

    /// The cap holds for every reply, even with a limit so low that the
    /// error itself would not fit with its id.
    @Test func tinyLimit_stillNeverExceeded() throws {
        let (endpoint, _, _) = makeEndpoint(maxReplyBytes: 80)
        var body = Array(#"{"action":"hello","id":"0123456789012345678901234567890123456789"}"#.utf8)
        let frame = endpoint.respond(to: &body).frame
        #expect(frame.bodyLength <= 80)
        #expect(try JSONParser.parse(frame.body)["code"] == "reply_too_large")
    }

    @Test func inProcessReply_matchesTheFramePath() throws {
        let (endpoint, _, _) = makeEndpoint(
            ["extensionEnabled": .bool(true)], actions: BuiltInActions.all + [EchoAction()])
        for text in [
            #"{"action":"getSettings","id":1}"#, #"{"action":"echo","text":"é"}"#,
            #"{"message":"request:enabled_status"}"#, "[]",
        ] {
            let message = try JSONParser.parse(Array(text.utf8))
            #expect(endpoint.reply(to: message) == (try respond(endpoint, text)))
        }
    }

    @Test func onlyASuccessfulHello_startsChangeNotifications() {
        let (endpoint, suite, _) = makeEndpoint()
        var hello = Array(#"{"action":"hello"}"#.utf8)
        #expect(endpoint.respond(to: &hello).startsChangeNotifications)
        var other = Array(#"{"action":"getSettings"}"#.utf8)
        #expect(!endpoint.respond(to: &other).startsChangeNotifications)
        suite.failure = .corrupt(path: "x", reason: "y")
        var badID = Array(#"{"action":"hello","id":[1]}"#.utf8)
        #expect(!endpoint.respond(to: &badID).startsChangeNotifications)
    }

    @Test func changeNotification_onlyWhenWhatTheExtensionSeesChanged() throws {
        let (endpoint, suite, _) = makeEndpoint(["extensionEnabled": .bool(true)])
        endpoint.startChangeNotifications()
        #expect(endpoint.changeNotification() == nil)
        suite.values["other"] = .string("x")
        #expect(endpoint.changeNotification() == nil)
        suite.values["vocabulary"] = .dictionary(["a": .string("b")])
        let event = try #require(endpoint.changeNotification())
        let json = try JSONParser.parse(event.body)
        #expect(json["event"] == "pageState")
        #expect(json["rules"] == ["vocabulary": ["a": "b"]])
        #expect(endpoint.changeNotification() == nil)
        suite.failure = .corrupt(path: "x", reason: "y")
        #expect(endpoint.changeNotification() == nil)
        suite.failure = nil
        // Switched off: pushed once, with no rules; the vocabulary changing then is nothing a page sees.
        suite.values["extensionEnabled"] = .bool(false)
        let off = try JSONParser.parse(try #require(endpoint.changeNotification()).body)
        #expect(off["enabled"] == false)
        #expect(off["rules"] == ["vocabulary": [:]])
        #expect(off["rulesVersion"] == "")
        suite.values["vocabulary"] = .dictionary(["a": .string("c")])
        #expect(endpoint.changeNotification() == nil)
    }
}
