import BridgeJSON
import BridgeSystem
import Testing

@testable import SharedSuite

@Suite struct SuiteSnapshotTests {
    @Test func snapshot_typedReadsCoerce_andMissingKeysAreNil() {
        let snapshot = SuiteSnapshot(values: [
            "extensionEnabled": .int(1), "extensionTheme": .int(3), "n": .string("7"),
        ])
        #expect(snapshot.bool("extensionEnabled") == true)
        #expect(SuiteKeys.isEnabled(snapshot))
        #expect(snapshot.string("extensionTheme") == "3")
        #expect(SuiteKeys.theme(snapshot) == "3")
        #expect(snapshot.int("n") == 7)
        #expect(snapshot.double("n") == 7)
        #expect(snapshot.bool("missing") == nil)
        #expect(SuiteKeys.theme(SuiteSnapshot(values: ["extensionTheme": .array([])])) == "auto")
    }

    @Test func snapshot_ofStringDictionaries_copiesTheirCompactText() throws {
        let text = suiteDocument(
            #""v": { "blue" : "blauw", "red": "rood\n\"x\"" }, "tag": {"$x": "y", "z": "w"}, "u": {"a": "\u0041"}, "n": {"a": 1}"#
        )
        expectAgreement(text)
        let snapshot = try Suite.snapshot(ofFile: Array(text.utf8), path: suiteFilePath)
        #expect(snapshot.encodedStringDictionary("v")?.bytes == Array(#"{"blue":"blauw","red":"rood\n\"x\""}"#.utf8))
        #expect(snapshot.encodedStringDictionary("tag") == nil)
        #expect(snapshot.encodedStringDictionary("missing") == nil)
        #expect(snapshot.encodedStringDictionary("v") == EncodedJSON(snapshot["v"]?.json ?? .null))
    }

    /// A snapshot read from a file and one built from values are equal when they hold the same
    /// values of the same version: callers compare snapshots, not how they are stored.
    @Test func equality_isValuesAndVersion_howeverStored() throws {
        let text = suiteDocument(#""b":[1,"x"],"a":{"k":"v"}"#)
        let file = try Suite.snapshot(ofFile: Array(text.utf8), path: suiteFilePath)
        let built = SuiteSnapshot(values: [
            "a": .dictionary(["k": .string("v")]), "b": .array([.int(1), .string("x")]),
        ])
        #expect(file == built)
        #expect(Set(file.keys) == ["a", "b"])
        #expect(file.dictionary("a") == ["k": .string("v")])
        #expect(file.dictionary("b") == nil)
        var versioned = built
        versioned.version = ChangeToken(counter: 1)
        #expect(versioned != built)
        var changed = file
        changed.values["c"] = .int(3)
        #expect(changed["c"] == .int(3) && changed["a"] == built["a"])
        #expect(changed.storedJSON("a") == nil, "once values are set, nothing is read from the file")
        #expect(file.storedJSON("b").map { Array($0) } == Array(#"[1,"x"]"#.utf8))
    }

    /// The indexed copy is the same compact text, cut between entries.
    @Test func indexedStringDictionary_isTheCompactCopyWithItsEntries() throws {
        let text = suiteDocument(#""v": { "blue" : "blauw", "red": "rood" }"#)
        let snapshot = try Suite.snapshot(ofFile: Array(text.utf8), path: suiteFilePath)
        let indexed = try #require(snapshot.indexedStringDictionary("v", nestedUnder: "vocabulary"))
        #expect(indexed.json.bytes == Array(#"{"vocabulary":{"blue":"blauw","red":"rood"}}"#.utf8))
        #expect(
            indexed.members.map { Array(indexed.json.bytes[$0]) } == [
                Array(#""blue":"blauw""#.utf8), Array(#""red":"rood""#.utf8),
            ])
        #expect(SuiteSnapshot(values: ["v": .dictionary([:])]).indexedStringDictionary("v") == nil)
    }
}
