import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

// What every BridgeHost test uses: an endpoint over in-memory storage, its reply through the
// frame path, and two actions of an app's own.

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

extension BridgeEndpoint {
    /// The reply to the frame body `text`, checking what every frame must be: a header equal to
    /// the body's length, at most 1 MiB, and the request body released once parsed.
    func checkedReply(to text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        var body = Array(text.utf8)
        let frame = respond(to: &body).frame
        #expect(body.isEmpty, "the body is released once parsed", sourceLocation: sourceLocation)
        #expect(frame.bodyLength == frame.bytes.count - 4, sourceLocation: sourceLocation)
        #expect(frame.bodyLength <= ProtocolLimits.maxReplyBytes, sourceLocation: sourceLocation)
        return try JSONParser.parse(frame.body)
    }
}

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

@Suite struct BridgeEndpointTests {
    @Test func badFrames_getDocumentedCodes() throws {
        let (endpoint, _, _) = makeEndpoint()
        #expect(try endpoint.checkedReply(to: "{not json")["code"] == "invalid_json")
        #expect(try endpoint.checkedReply(to: "[1]")["code"] == "not_an_object")
        #expect(try endpoint.checkedReply(to: String(repeating: "[", count: 100))["code"] == "too_deep")
        var invalid: [UInt8] = [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]  // {"\xFF":1}
        let reply = try JSONParser.parse(endpoint.respond(to: &invalid).frame.body)
        #expect(reply["code"] == "invalid_utf8")
    }

    @Test func customAction_isRoutedListedByHello_andGetsTheCaller() throws {
        let (endpoint, _, _) = makeEndpoint(actions: BuiltInActions.all + [EchoAction()])
        let reply = try endpoint.checkedReply(to: #"{"action":"echo","text":"hi","id":"e1"}"#)
        #expect(reply == ["status": "success", "text": "hi", "caller": "chrome-extension://abc/", "id": "e1"])
        #expect(try endpoint.checkedReply(to: #"{"action":"echo"}"#)["code"] == "missing_field")
        let hello = try endpoint.checkedReply(to: #"{"action":"hello"}"#)
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
        #expect(try endpoint.checkedReply(to: #"{"action":"getSettings"}"#)["mine"] == true)
        #expect(try endpoint.checkedReply(to: #"{"action":"hello"}"#)["fake"] == nil)
        #expect(endpoint.actionNames.filter { $0 == "getSettings" }.count == 1)
    }

    @Test func replyOverTheLimit_becomesReplyTooLarge_withTheId() throws {
        let (endpoint, _, _) = makeEndpoint(actions: [HugeAction()])
        let reply = try endpoint.checkedReply(to: #"{"action":"huge","id":"big"}"#)
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
            #expect(endpoint.reply(to: message) == (try endpoint.checkedReply(to: text)))
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

    @Test func nonObjectMessage_isRefused() {
        let (endpoint, _, _) = makeEndpoint()
        #expect(endpoint.handle([1, 2])["code"] == "not_an_object")
    }
}
