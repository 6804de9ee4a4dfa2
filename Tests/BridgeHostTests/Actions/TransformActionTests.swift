import BridgeJSON
import BridgeProtocol
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

@Suite struct TransformActionTests {
    let vocabulary: [String: SuiteValue] = [
        "vocabulary": .dictionary([
            "blue": .string("blauw"), "ice cream": .string("roomijs"), "straße": .string("street"),
            "bad": .int(1),
        ])
    ]

    @Test func transform_appliesTheVocabulary_caseAndPhrasesAndUnicode() {
        let (endpoint, _, _) = makeEndpoint(vocabulary)
        let reply = endpoint.handle(["action": "transform", "text": "Blue ICE CREAM, Straße; blueberry 🙂", "id": 3])
        #expect(reply == ["status": "success", "text": "Blauw ROOMIJS, Street; blueberry 🙂", "changed": true, "id": 3])
    }

    @Test func transform_emptyOrUnmatched_isUnchanged() {
        let (endpoint, _, _) = makeEndpoint(vocabulary)
        #expect(
            endpoint.handle(["action": "transform", "text": ""]) == ["status": "success", "text": "", "changed": false])
        #expect(endpoint.handle(["action": "transform", "text": "red"])["changed"] == false)
        let (empty, _, _) = makeEndpoint()
        #expect(empty.handle(["action": "transform", "text": "blue"])["text"] == "blue")
    }

    @Test func transform_withoutText_isInvalid() {
        let (endpoint, _, _) = makeEndpoint(vocabulary)
        #expect(endpoint.handle(["action": "transform"])["code"] == "invalid_request")
        #expect(endpoint.handle(["action": "transform", "text": 5])["code"] == "invalid_request")
    }

    /// The limit is in UTF-8 bytes: 200,000 "€" are 600,000 bytes but only 200,000 Characters.
    @Test func transform_overTheByteLimit_isRefusedWithSizeAndLimit() {
        let (endpoint, _, _) = makeEndpoint(vocabulary)
        let text = String(repeating: "€", count: 200_000)
        let reply = endpoint.handle(["action": "transform", "text": .string(text)])
        #expect(reply["code"] == "content_too_large")
        #expect(reply["size"] == 600_000)
        #expect(reply["limit"] == .int(TransformAction.maxTextBytes))
        let atLimit = String(repeating: "x", count: TransformAction.maxTextBytes)
        #expect(endpoint.handle(["action": "transform", "text": .string(atLimit)])["status"] == "success")
    }

    @Test func transform_whoseResultWouldNotFitAReply_isReplyTooLarge() {
        let (endpoint, _, _) = makeEndpoint([
            "vocabulary": .dictionary(["a": .string(String(repeating: "b", count: 10_000))])
        ])
        let text = Array(repeating: "a", count: 200).joined(separator: " ")
        let reply = endpoint.handle(["action": "transform", "text": .string(text), "id": 1])
        #expect(reply["code"] == "reply_too_large")
        #expect(reply["id"] == 1)
    }

    @Test func transform_anAppsOwnRule_replacesTheBuiltIn() {
        let shout = TransformAction { text, _ in text.uppercased() }
        let (endpoint, _, _) = makeEndpoint(vocabulary, actions: BuiltInActions.all + [shout])
        #expect(endpoint.handle(["action": "transform", "text": "blue"])["text"] == "BLUE")
    }

    @Test func transform_suiteFailure_isStorageError() {
        let (endpoint, suite, _) = makeEndpoint(vocabulary)
        suite.failure = .noHome
        #expect(endpoint.handle(["action": "transform", "text": "blue"])["status"] == "error")
    }
}
