import BridgeJSON
import Testing

@testable import BridgeGenerator

/// The manifest read as Safari, Chromium and Firefox read it: trailing commas and comments taken,
/// anything else refused with its line and column.
@Suite struct SafariManifestTests {
    @Test func trailingCommas_andComments_areTolerated_andCounted() throws {
        let text = """
            {
              // Safari's template keeps this comment
              "manifest_version": 2, /* and this one */
              "name": "a, } ] // not a comment",
              "permissions": ["storage", "https://x.example/*",],
              "icons": {"48": "i.png", },
            }
            """
        let (object, tolerated) = try SafariManifest.parse(Array(text.utf8))
        #expect(object["name"] == "a, } ] // not a comment", "commas and slashes in strings are the string's")
        #expect(object["permissions"] == ["storage", "https://x.example/*"])
        #expect(object["icons"] == ["48": "i.png"])
        #expect(tolerated == ["3 trailing commas", "2 comments"])
    }

    @Test func strictJSON_isReadAsIs_withNothingTolerated() throws {
        let (object, tolerated) = try SafariManifest.parse(Array("\u{FEFF}{\"a\": [1, \"\\\"\"]}".utf8))
        #expect(object["a"] == [1, "\""])
        #expect(tolerated.isEmpty)
    }

    @Test func otherErrors_nameTheLineAndColumn_andNotAnObjectIsSaid() {
        for (text, place) in [
            ("{\n  \"a\": 1,\n  \"b\": nope\n}", "line 3, column 8"), ("{\"a\": 1 \"b\": 2}", "line 1, column 9"),
            ("{\n  \"é\": 1,\n  \"b\" 2}", "line 3, column 7"),
        ] {
            #expect(throws: GeneratorError.self) { try SafariManifest.parse(Array(text.utf8)) }
            do {
                _ = try SafariManifest.parse(Array(text.utf8))
            } catch {
                #expect(error.description.contains(place), "\(error)")
                #expect(error.exitStatus == 65)
            }
        }
        do {
            _ = try SafariManifest.parse(Array("[1,]".utf8))
            Issue.record("an array was taken")
        } catch {
            #expect(error.description.contains("not a JSON object (it is a array)"), "\(error)")
        }
    }
}
