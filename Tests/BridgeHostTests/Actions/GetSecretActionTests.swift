import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

@Suite struct GetSecretActionTests {
    final class Lines: @unchecked Sendable {
        var all: [String] = []
    }

    func endpoint(_ secrets: MemorySecretStore, lines: Lines = Lines()) -> BridgeEndpoint {
        let context = ActionContext(
            suite: MemorySuiteStore(), queue: MemoryQueue(),
            caller: Caller(kind: .chromium, identity: "chrome-extension://abc/"),
            logger: Logger(level: .debug) { lines.all.append($0) }, groupID: "group.test", secrets: secrets)
        return BridgeEndpoint(context: context, actions: BuiltInActions.all)
    }

    @Test func sharedSecret_isAnswered_andItsValueNeverLogged() {
        let secrets = MemorySecretStore()
        secrets.secrets["api-token"] = (Array("s3cr3t-välue".utf8), true)
        let lines = Lines()
        let reply = endpoint(secrets, lines: lines).handle(["action": "getSecret", "name": "api-token", "id": 7])
        #expect(reply == ["status": "success", "name": "api-token", "value": "s3cr3t-välue", "id": 7])
        #expect(!lines.all.isEmpty)
        #expect(!lines.all.contains { $0.contains("s3cr3t") })
    }

    @Test func privateSecret_isNotShared_andMissingIsNotFound() {
        let secrets = MemorySecretStore()
        secrets.secrets["private"] = (Array("hidden".utf8), false)
        let lines = Lines()
        let bridge = endpoint(secrets, lines: lines)
        let notShared = bridge.handle(["action": "getSecret", "name": "private"])
        #expect(notShared["code"] == "secret_not_shared")
        #expect(notShared["value"] == nil)
        #expect(!"\(notShared)".contains("hidden"))
        #expect(bridge.handle(["action": "getSecret", "name": "nothing"])["code"] == "secret_not_found")
        #expect(!lines.all.contains { $0.contains("hidden") })
    }

    @Test func badNames_areInvalidRequests() {
        let bridge = endpoint(MemorySecretStore())
        #expect(bridge.handle(["action": "getSecret"])["code"] == "invalid_request")
        let names: [JSONValue] = [
            5, "", "../x", ".hidden", "-x", "a b", "tab\there", "\u{1b}[31m", "é",
            .string(String(repeating: "a", count: 129)),
        ]
        for name in names {
            #expect(bridge.handle(["action": "getSecret", "name": name])["code"] == "invalid_request", "\(name)")
        }
    }

    @Test func aValueThatIsNotUTF8_isNeverAltered() {
        let secrets = MemorySecretStore()
        secrets.secrets["binary"] = ([0x61, 0xFF, 0x62], true)
        let reply = endpoint(secrets).handle(["action": "getSecret", "name": "binary"])
        #expect(reply["code"] == "secrets_unavailable")
        #expect(reply["value"] == nil)
    }

    @Test func noStore_answersSecretsUnavailable() {
        let secrets = MemorySecretStore()
        secrets.failure = .unavailable("no session bus")
        let reply = endpoint(secrets).handle(["action": "getSecret", "name": "api-token"])
        #expect(reply["code"] == "secrets_unavailable")
        #expect(reply["message"]?.stringValue?.contains("no session bus") == true)
    }

    @Test func hello_listsGetSecret() {
        let (bridge, _, _) = makeEndpoint()
        #expect(bridge.handle(["action": "hello"])["actions"]?.arrayValue?.contains("getSecret") == true)
    }
}
