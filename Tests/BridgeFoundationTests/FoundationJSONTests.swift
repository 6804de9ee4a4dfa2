import BridgeJSON
import Foundation
import Testing

@testable import BridgeFoundation

/// What Safari hands a handler is what `JSONSerialization` makes of the
/// extension's message: NSNumber booleans and numbers, NSNull, nested arrays.
@Suite struct FoundationJSONTests {
    func parsed(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    @Test func booleansStayBooleans_andNumbersStayNumbers() throws {
        let message = try parsed(#"{"on":true,"off":false,"one":1,"zero":0,"half":0.5,"whole":2.0}"#)
        #expect(
            try FoundationJSON.value(message) == [
                "on": true, "off": false, "one": 1, "zero": 0, "half": 0.5, "whole": .double(2.0),
            ])
        #expect(try FoundationJSON.value(true) == .bool(true))
        #expect(try FoundationJSON.value(1) == .int(1))
        #expect(try FoundationJSON.value(NSNumber(value: 1)) == .int(1))
        #expect(try FoundationJSON.value(NSNumber(value: false)) == .bool(false))
        #expect(try FoundationJSON.value(UInt64.max) == .double(Double(UInt64.max)))
    }

    @Test func nullsAndNestedArrays() throws {
        let message = try parsed(#"{"a":[null,[1,[true,"x"]],{}],"b":null}"#)
        #expect(try FoundationJSON.value(message) == ["a": [nil, [1, [true, "x"]], [:]], "b": nil])
        #expect(try FoundationJSON.value(nil) == .null)
        #expect(try FoundationJSON.value(NSNull()) == .null)
    }

    @Test func whatJSONCannotHold_isRefusedWithAPath() {
        #expect(throws: FoundationJSON.ConversionError.notFinite(path: "$.x")) {
            try FoundationJSON.value(["x": Double.nan] as [String: Any])
        }
        #expect(throws: FoundationJSON.ConversionError.self) {
            try FoundationJSON.value(["d": Date()] as [String: Any])
        }
        #expect(throws: FoundationJSON.ConversionError.nonStringKey(path: "$")) {
            try FoundationJSON.value([1: "x"] as [AnyHashable: Any])
        }
    }

    /// A reply goes back through JSONSerialization unchanged in meaning.
    @Test func object_roundTripsThroughJSONSerialization() throws {
        let reply: JSONValue = [
            "status": "success", "enabled": true, "count": 3, "ratio": 0.25, "none": nil,
            "items": [["id": "a", "flags": [false, true]]],
        ]
        let object = FoundationJSON.object(reply)
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(try FoundationJSON.value(try JSONSerialization.jsonObject(with: data)) == reply)
        #expect(try FoundationJSON.value(object) == reply)
    }
}
