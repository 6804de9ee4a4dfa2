import BridgeJSON
import Testing

@testable import BridgeHost

@Suite struct BridgeRequestTests {
    func request(_ text: String) throws -> BridgeRequest {
        guard case .request(let request) = try BridgeRequest.parse(Array(text.utf8), maximumDepth: 64) else {
            throw JSONError.syntax(offset: 0, reason: "not an object")
        }
        return request
    }

    @Test func parse_readsTheMembers_theLastOfARepeatedKeyCounts() throws {
        let parsed = try request(#"{"action":"hello","id":1,"message":"m","action":"getSettings","n":[1,{"a":2}]}"#)
        #expect(parsed.action == "getSettings")
        #expect(parsed.id == 1)
        #expect(parsed.legacyMessage == "m")
        #expect(parsed["n"] == [1, ["a": 2]])
        #expect(parsed.string("id") == nil && parsed.string("missing") == nil)
        #expect(parsed.body == ["action": "getSettings", "id": 1, "message": "m", "n": [1, ["a": 2]]])
    }

    /// A value that is not an object is checked and named, never built.
    @Test func parse_ofAnotherValue_namesItsType_andStillChecksIt() throws {
        #expect(try BridgeRequest.parse(Array("[1,2]".utf8), maximumDepth: 64) == .notAnObject(typeName: "array"))
        #expect(try BridgeRequest.parse(Array("\"s\"".utf8), maximumDepth: 64) == .notAnObject(typeName: "string"))
        #expect(throws: JSONError.self) { try BridgeRequest.parse(Array("[1,".utf8), maximumDepth: 64) }
        #expect(throws: JSONError.tooDeep(limit: 2)) { try BridgeRequest.parse(Array("[[[1]]]".utf8), maximumDepth: 2) }
    }

    /// An array or object over 64 KiB of text is kept as text until an action asks for it (a
    /// parsed tree costs many times its text); asked for, it reads as the parser reads it.
    @Test func largeArraysAndObjects_areKeptAsTextUntilAskedFor() throws {
        let big = "[" + Array(repeating: "0", count: 40_000).joined(separator: ",") + "]"
        let parsed = try request(#"{"action":"x","small":[1],"big":"# + big + "}")
        #expect(parsed.isDeferred("big"))
        #expect(!parsed.isDeferred("small") && !parsed.isDeferred("missing"))
        #expect(parsed["big"] == (try JSONParser.parse(big)))
        let string = try request(#"{"s":""# + String(repeating: "y", count: 70_000) + #""}"#)
        #expect(!string.isDeferred("s"))
    }
}
