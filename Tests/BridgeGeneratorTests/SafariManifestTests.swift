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
        let (object, tolerated, duplicates) = try SafariManifest.parse(Array(text.utf8))
        #expect(duplicates.isEmpty)
        #expect(object["name"] == "a, } ] // not a comment", "commas and slashes in strings are the string's")
        #expect(object["permissions"] == ["storage", "https://x.example/*"])
        #expect(object["icons"] == ["48": "i.png"])
        #expect(tolerated == ["3 trailing commas", "2 comments"])
    }

    @Test func strictJSON_isReadAsIs_withNothingTolerated() throws {
        let (object, tolerated, _) = try SafariManifest.parse(Array("\u{FEFF}{\"a\": [1, \"\\\"\"]}".utf8))
        #expect(object["a"] == [1, "\""])
        #expect(tolerated.isEmpty)
    }

    /// Chromium and Firefox keep a repeated key's last value and say nothing; the import keeps the
    /// same value and names each repeat, nested ones by their path, an escaped spelling as the same key.
    @Test func repeatedKeys_areFound_withTheirPathAndLine() throws {
        let text = """
            {"manifest_version": 3, "name": "a", "name": "b",
             "permissions": ["storage"],
             "background": {"scripts": ["x.js"], "scr\\u0069pts": ["y.js"]},
             "content_scripts": [{"js": ["c.js"], "matches": ["<all_urls>"], "js": ["d.js"]}],
             "p": {"name": 1}, // a key of another object is not a repeat
             "permissions": ["tabs"],}
            """
        let (object, _, duplicates) = try SafariManifest.parse(Array(text.utf8))
        #expect(object["name"] == "b", "the last value, as the browsers keep")
        #expect(object["permissions"] == ["tabs"])
        #expect(
            duplicates == [
                .init(path: "name", line: 1), .init(path: "background.scripts", line: 3),
                .init(path: "content_scripts[].js", line: 4), .init(path: "permissions", line: 6),
            ])
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
