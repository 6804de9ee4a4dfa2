import Testing

@testable import BridgeJSON

@Suite struct JSONValueTests {
    /// JavaScript has one number type: `2.0` from a page is the integer 2, but a double that
    /// is not exactly an integer, or too large to be one without rounding, is not.
    @Test func intValue_takesIntegralDoubles_only() {
        #expect(JSONValue.int(5).intValue == 5)
        #expect(JSONValue.double(2.0).intValue == 2)
        #expect(JSONValue.double(-3.0).intValue == -3)
        #expect(JSONValue.double(2.5).intValue == nil)
        #expect(JSONValue.double(1e16).intValue == nil)
        #expect(JSONValue.double(.nan).intValue == nil)
        #expect(JSONValue.string("2").intValue == nil)
        #expect(JSONValue.int(2).doubleValue == 2.0)
    }

    @Test func accessors_answerOnlyForTheirType() {
        let object: JSONValue = ["a": "x", "b": true, "c": [1], "d": nil]
        #expect(object["a"]?.stringValue == "x")
        #expect(object["b"]?.boolValue == true)
        #expect(object["c"]?.arrayValue == [1])
        #expect(object["d"] == .null)
        #expect(object["missing"] == nil)
        #expect(object.objectValue?.count == 4)
        #expect(JSONValue.string("x")["a"] == nil)
        #expect(JSONValue.int(1).stringValue == nil && JSONValue.string("true").boolValue == nil)
        #expect(JSONValue.array([]).objectValue == nil && JSONValue.object([:]).arrayValue == nil)
    }

    /// The names error messages use: JSON's own words, one for both kinds of number.
    @Test func typeName_isJSONsWord() {
        let values: [JSONValue] = [nil, true, 1, 1.5, "s", [], [:]]
        #expect(values.map(\.typeName) == ["null", "boolean", "number", "number", "string", "array", "object"])
    }
}
