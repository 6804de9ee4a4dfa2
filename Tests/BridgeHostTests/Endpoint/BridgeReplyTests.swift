import BridgeJSON
import Testing

@testable import BridgeHost

@Suite struct BridgeReplyTests {
    /// The reply is written in one pass: its bytes are the writer's bytes of the same value,
    /// whatever order members were set in, with a member set twice written once.
    @Test func bytes_areTheWritersBytes_whateverTheOrderOfSetting() {
        var reply = BridgeReply(["zeta": 1, "alpha": "a"])
        reply["é"] = true
        reply["beta"] = [1, 2]
        reply["alpha"] = "replaced"
        reply["gone"] = 1
        reply["gone"] = nil
        let expected: JSONValue = ["zeta": 1, "alpha": "replaced", "é": true, "beta": [1, 2]]
        #expect(reply.bytes == JSONWriter.bytes(expected))
        #expect(reply.json == expected)
        #expect(reply["gone"] == nil)
    }

    /// A large encoded member (settings, rules) is its own piece, shared rather than copied;
    /// the pieces together are the reply after the room left for a frame header.
    @Test func pieces_shareALargeEncodedMember_andLeaveRoomForTheHeader() {
        let rules = EncodedJSON(["vocabulary": .object(["w": .string(String(repeating: "x", count: 20_000))])])
        var reply = BridgeReply.success(["page": 0])
        reply.set("rules", encoded: rules)
        let pieces = reply.pieces(leaving: 4)
        #expect(pieces.count == 3)
        #expect(pieces.contains(rules.bytes))
        #expect(Array(pieces[0].prefix(4)) == [0, 0, 0, 0])
        #expect(Array(pieces.joined().dropFirst(4)) == reply.bytes)
        #expect(reply["rules"] == rules.value)
        var small = BridgeReply()
        small.set("settings", encoded: EncodedJSON(["enabled": true]))
        #expect(small.pieces(leaving: 0).count == 1)
        #expect(small.bytes == Array(#"{"settings":{"enabled":true}}"#.utf8))
    }

    @Test func successErrorAndEcho_makeTheDocumentedShapes() {
        #expect(BridgeReply.success(["n": 1]).json == ["status": "success", "n": 1])
        #expect(
            BridgeReply.error(.invalidRequest, "bad", ["field": "url"]).json == [
                "status": "error", "code": "invalid_request", "message": "bad", "field": "url",
            ])
        #expect(BridgeReply.success().echoing(7).json == ["status": "success", "id": 7])
        #expect(BridgeReply.success().echoing(nil).json == ["status": "success"])
    }
}
