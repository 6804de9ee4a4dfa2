import Foundation
import Testing

@testable import BridgeProtocol

/// The codes are what an extension branches on: each is documented in docs/PROTOCOL.md's
/// table, and the table lists no code the host cannot send.
@Suite struct BridgeErrorCodeTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func protocolTable_listsExactlyTheCodes() throws {
        let text = try String(
            contentsOf: Self.repository.appendingPathComponent("docs/PROTOCOL.md"), encoding: .utf8)
        let start = try #require(text.range(of: "## Error codes"))
        let section = text[start.upperBound...]
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        let rows = section[..<end].split(separator: "\n").filter { $0.hasPrefix("| `") }
        let documented = rows.compactMap { $0.split(separator: "`").dropFirst().first.map(String.init) }
        #expect(documented.sorted() == BridgeErrorCode.allCases.map(\.rawValue).sorted())
    }

    @Test func codes_areUniqueSnakeCase() {
        let codes = BridgeErrorCode.allCases.map(\.rawValue)
        #expect(Set(codes).count == codes.count)
        #expect(
            codes.allSatisfy { $0.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) } })
    }
}
