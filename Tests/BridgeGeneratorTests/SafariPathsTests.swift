import Testing

@testable import BridgeGenerator

/// Every file the manifest names, checked; files Xcode keeps in a group (and copies flat into the
/// extension) placed where the manifest names them, with what they refer to; the rest reported.
@Suite struct SafariPathsTests {
    @Test func aFlattenedGroup_isPlacedWhereTheManifestNamesIt_withItsFiles() throws {
        // QR Pop's layout: the manifest names options.html, the Xcode project keeps it in options/.
        let options = "<script src=\"options.js\"></script><style>a { background: url(chevron.svg) }</style>"
        let imported = try SafariFixture.imported([
            "manifest.json":
                #"{"manifest_version": 3, "name": "Q", "version": "1", "options_ui": {"page": "options.html"}}"#,
            "options/options.html": options, "options/options.js": "//", "options/chevron.svg": "<svg/>",
            "options/unused.txt": "",
        ])
        for path in ["options.html", "options.js", "chevron.svg", "options/options.html"] {
            #expect(imported.file(path) != nil, "\(path)")
        }
        #expect(imported.text("options.html") == options, "byte for byte")
        #expect(imported.file("unused.txt") == nil, "only what the page refers to")
        #expect(
            imported.report.changed("placed options/options.html at options.html, options/options.js at options.js"))
        #expect(imported.report.findings.isEmpty, "\(imported.report.findings)")
    }

    @Test func whatAPageRefersTo_isPlacedToo_whenXcodeFlattenedItsGroup() throws {
        let imported = try SafariFixture.imported([
            "manifest.json":
                #"{"manifest_version": 3, "name": "P", "version": "1", "action": {"default_popup": "popup.html"}}"#,
            "popup.html": "<link rel=stylesheet href=popup.css><script type=module src=popup.js></script>",
            "popup/popup.js": "import './lib.js';", "popup/lib.js": "", "popup/popup.css": "",
        ])
        for path in ["popup.js", "popup.css", "lib.js"] { #expect(imported.file(path) != nil, "\(path)") }
        #expect(imported.report.findings.isEmpty, "\(imported.report.findings.map(\.api))")
        #expect(imported.report.changed("placed popup/popup.css at popup.css"))
    }

    @Test func aMissingFile_isReportedByName_andSoIsAnAmbiguousOne() throws {
        let imported = try SafariFixture.imported([
            "manifest.json": """
            {"manifest_version": 3, "name": "M", "version": "1",
             "icons": {"48": "images/icon-48.png"}, "action": {"default_popup": "popup.html"},
             "web_accessible_resources": [{"resources": ["*.css", "a.css"], "matches": ["<all_urls>"]}]}
            """,
            "a/a.css": "", "b/a.css": "", "popup.html": "<link rel=stylesheet href=\"popup.css\"><img src=gone.png>",
            "popup.css": "body { background: url(\"missing.png\") }",
        ])
        let missing = imported.report.findings.filter { $0.api.hasPrefix("missing file") }
        #expect(
            missing.map(\.api) == [
                "missing file images/icon-48.png", "missing file a.css", "missing file gone.png",
                "missing file missing.png",
            ])
        #expect(missing[0].file == "manifest.json" && missing[0].line == 2)
        #expect(missing[1].advice.contains("more than one file has its name: a/a.css, b/a.css"))
        #expect(missing[2].file == "popup.html" && missing[3].file == "popup.css")
    }
}
