import Testing

@testable import BridgeJSON

@Suite struct JSONErrorTests {
    /// What reaches the caller (`invalid_json`'s message, a `doctor` line) says where the text
    /// went wrong, in bytes, and why.
    @Test func descriptions_sayWhereAndWhy() {
        #expect(JSONError.invalidUTF8(offset: 7).description == "invalid UTF-8 at byte 7")
        #expect(
            JSONError.syntax(offset: 3, reason: "expected ':'").description == "invalid JSON at byte 3: expected ':'")
        #expect(JSONError.tooDeep(limit: 64).description == "JSON nests deeper than 64 levels")
    }

    @Test func parserErrors_carryTheOffsetOfTheProblem() {
        #expect(throws: JSONError.invalidUTF8(offset: 2)) { try JSONParser.parse([0x22, 0x61, 0xFF, 0x22]) }
        #expect(throws: JSONError.tooDeep(limit: 2)) { try JSONParser.parse("[[[1]]]", maximumDepth: 2) }
        do {
            _ = try JSONParser.parse("{\"a\" 1}")
            Issue.record("parsed")
        } catch {
            if case .syntax(let offset, _) = error { #expect(offset == 5) } else { Issue.record("\(error)") }
        }
    }
}
