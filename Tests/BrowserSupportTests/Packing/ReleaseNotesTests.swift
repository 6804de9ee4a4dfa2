import Testing

@testable import BrowserSupport

@Suite struct ReleaseNotesTests {
    static let changelog = """
        # Changelog

        ## [Unreleased]

        ### Added
        - not released yet

        ## [0.2.0] - 2027-01-02

        ### Added
        - `queue count`, a new verb with a long description that goes on and on past the
          end of one Markdown line and must be wrapped for the Debian changelog's columns.

        ### Fixed
        - a fix

        ## [0.1.0] - 2026-12-05

        ### Added
        - the first release
        """

    @Test func theVersionsSection_only_withContinuationsJoined() throws {
        let notes = try ReleaseNotes(markdown: Self.changelog, version: "0.2.0")
        #expect(notes.groups.map(\.heading) == ["Added", "Fixed"])
        #expect(notes.groups[0].entries.count == 1)
        #expect(notes.groups[0].entries[0].hasPrefix("queue count, a new verb"))
        #expect(notes.groups[0].entries[0].hasSuffix("Debian changelog's columns."))
        #expect(notes.groups[1].entries == ["a fix"])
    }

    @Test func debianLines_areGroupedAndWrappedAt79Columns() throws {
        let lines = try ReleaseNotes(markdown: Self.changelog, version: "0.2.0").debianLines
        #expect(lines.first == "  * Added")
        #expect(lines[1].hasPrefix("    - queue count"))
        #expect(lines[2].hasPrefix("      "))
        #expect(lines.contains("  * Fixed"))
        #expect(lines.allSatisfy { $0.count <= 79 }, "\(lines)")
    }

    @Test func aVersionWithoutEntries_isRefused() {
        #expect(throws: PackError.self) { try ReleaseNotes(markdown: Self.changelog, version: "0.3.0") }
        #expect(throws: PackError.self) {
            try ReleaseNotes(markdown: "## [0.3.0] - 2027-02-03\n\n### Added\n", version: "0.3.0")
        }
    }

    @Test func theDebianChangelog_carriesTheEntries_andRefusesOneThatIsNotOneLine() throws {
        let deb = DebianPackage(
            control: .init(
                name: "linguisticat", version: "0.2.0", architecture: "amd64", maintainer: "A <a@example.com>",
                summary: "s", paragraphs: ["p"]))
        let notes = try ReleaseNotes(markdown: Self.changelog, version: "0.2.0")
        let text = String(
            decoding: try deb.changelog(date: "Mon, 1 Jan 2024 00:00:00 +0000", builtWith: "0.2.0", notes: notes),
            as: UTF8.self)
        #expect(text.hasPrefix("linguisticat (0.2.0) unstable; urgency=medium\n\n  * Added\n    - queue count"))
        #expect(!text.contains("Built with"))
        var evil = notes
        evil.groups[1].entries = ["a fix\u{2028} -- Someone <s@example.com>  Mon, 1 Jan 2024"]
        #expect(throws: PackError.self) {
            try deb.changelog(date: "Mon, 1 Jan 2024 00:00:00 +0000", builtWith: "0.2.0", notes: evil)
        }
    }
}
