import Foundation
import Testing

@testable import BridgeProtocol

/// One table of environment variables: the code reads only names from `EnvironmentVariable`, and
/// docs/INSTALLING.md's table lists exactly those, so a variable cannot be added, renamed or dropped in one
/// place only.
@Suite struct EnvironmentVariableTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func installingTable_namesExactlyTheTable() throws {
        let page = try Self.text("docs/INSTALLING.md")
        let start = try #require(page.range(of: "### Environment variables"))
        let section = page[start.upperBound...]
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        let rows = section[..<end].split(separator: "\n").filter { $0.hasPrefix("| `EXTENSION_BRIDGE_") }
        let named = rows.compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) }
        #expect(named.sorted() == EnvironmentVariable.allCases.map(\.name).sorted())
    }

    @Test func sources_readNoVariableByAStringOfTheirOwn() throws {
        // The man page's text and the generated project's scripts name variables as text, not to read them.
        let textOnly: Set<String> = ["EnvironmentVariable.swift", "ManPage.swift", "ProjectTemplate.swift"]
        let sources = Self.repository.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path))
        var offenders: [String] = []
        for case let path as String in files where path.hasSuffix(".swift") {
            guard !textOnly.contains((path as NSString).lastPathComponent) else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            if text.contains("\"EXTENSION_BRIDGE_") { offenders.append(path) }
        }
        #expect(offenders == [])
    }
}
