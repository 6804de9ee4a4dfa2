import BridgeJSON
import BridgeProtocol
import Testing

@testable import BridgeHost

/// An action that a Safari extension's own message names under another member than `action`
/// (`BridgeAction.messageKey`): what `new --from-safari` generates for each message it finds.
private struct KeyedAction: BridgeAction {
    let name: String
    let messageKey: String?
    func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        .success(["answeredBy": .string(name), "key": messageKey.map(JSONValue.string) ?? .null])
    }
}

/// A Safari handler's reply that is not an object: the formats markdown-linker's popup iterates over.
private struct FormatsAction: BridgeAction {
    let name = "getFormats"
    let messageKey: String? = "request"
    func perform(_ request: BridgeRequest, in context: ActionContext) -> BridgeReply {
        .value([["name": "Markdown", "command": "markdown"], ["name": "HTML", "command": "html"]])
    }
}

@Suite struct BridgeEndpointMessageKeyTests {
    let actions: [BridgeAction] =
        BuiltInActions.all + [
            KeyedAction(name: "syncGet", messageKey: "type"), KeyedAction(name: "getFormats", messageKey: "request"),
            KeyedAction(name: "getSettings", messageKey: "message"),
        ]

    @Test func aMessageNamedUnderItsKey_reachesTheActionThatDeclaredIt() {
        let (endpoint, _, _) = makeEndpoint(actions: actions)
        #expect(endpoint.handle(["type": "syncGet", "payload": 1, "id": 3])["answeredBy"] == "syncGet")
        #expect(endpoint.handle(["type": "syncGet", "id": 3])["id"] == 3, "the id is echoed as for any action")
        #expect(endpoint.handle(["request": "getFormats"])["answeredBy"] == "getFormats")
        // A later action of the same name replaces the built-in one, under both ways of naming it.
        #expect(endpoint.handle(["message": "getSettings"])["answeredBy"] == "getSettings")
        #expect(endpoint.handle(["action": "getSettings"])["answeredBy"] == "getSettings")
    }

    @Test func aKeyReachesOnlyTheActionsThatDeclaredIt_neverTheBuiltIns() {
        let (endpoint, _, _) = makeEndpoint(actions: actions)
        // `type` names syncGet only: neither a built-in action nor one declared under another key.
        #expect(endpoint.handle(["type": "queueCount"])["code"] == "unknown_action")
        #expect(endpoint.handle(["type": "getFormats"])["code"] == "unknown_action")
        #expect(endpoint.handle(["request": "syncGet"])["code"] == "unknown_action")
        // Without any keyed action, a `type` member is data, as before.
        let (plain, _, _) = makeEndpoint()
        #expect(plain.handle(["type": "syncGet"])["code"] == "unknown_action")
        #expect(plain.handle(["action": "queueCount", "type": "syncGet"])["status"] == "success")
    }

    @Test func theDeclaredName_comesBeforeAnActionMemberThatIsTheMessagesData() {
        let (endpoint, _, _) = makeEndpoint(actions: actions)
        #expect(endpoint.handle(["type": "syncGet", "action": "delete"])["answeredBy"] == "syncGet")
        // A value that names nothing under its key leaves `action` to route as always.
        #expect(endpoint.handle(["type": "other", "action": "queueCount"])["status"] == "success")
    }

    @Test func theSeedsLegacyMessage_isStillAnsweredByTheHost() {
        let (endpoint, _, _) = makeEndpoint(actions: actions)
        #expect(endpoint.handle(["message": "request:enabled_status"])["delivery:enabled_status"] == false)
    }

    @Test func aReplyOfAnyValue_isSentAsItIs_asASafariHandlersIs() {
        let (endpoint, _, _) = makeEndpoint(actions: [FormatsAction()])
        let formats: JSONValue = [["command": "markdown", "name": "Markdown"], ["command": "html", "name": "HTML"]]
        #expect(endpoint.handle(["request": "getFormats"]) == formats)
        #expect(endpoint.handle(["request": "getFormats", "id": 4]) == formats, "an array has no id to echo")
        #expect(endpoint.reply(to: ["request": "getFormats"]) == formats, "the Safari handler's path too")
        #expect(BridgeReply.value("text").bytes == Array(#""text""#.utf8))
        // An object is an ordinary reply: its members, the id echoed.
        #expect(BridgeReply.value(["a": 1]).echoing(2).json == ["a": 1, "id": 2])
    }

    @Test func notImplemented_isAStableCode() {
        #expect(BridgeErrorCode.notImplemented.rawValue == "not_implemented")
    }
}
