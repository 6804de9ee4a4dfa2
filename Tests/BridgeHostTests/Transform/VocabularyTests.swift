import BridgeJSON
import BridgeSystem
import TestSupport
import Testing

@testable import BridgeHost

/// The host's transform and the extension's page rewriting read one table
/// of cases (`extension/test/fixtures/transform-cases.json`; the node test
/// `engine.test.js: sharedFixture_everyCase` reads it too), so they cannot drift.
@Suite struct VocabularyTests {
    static let fixturePath = Repository.path("extension/test/fixtures/transform-cases.json")

    struct Case: CustomTestStringConvertible {
        var name: String
        var pairs: [(String, String)]
        var text: String
        var expected: String
        var testDescription: String { name }
    }

    static func cases() throws -> [Case] {
        let json = try JSONParser.parse(try FileSystem.readFile(fixturePath))
        return (json["cases"]?.arrayValue ?? []).map { c in
            let pairs = (c["vocabulary"]?.arrayValue ?? []).map { pair in
                (pair.arrayValue?.first?.stringValue ?? "", pair.arrayValue?.last?.stringValue ?? "")
            }
            return Case(
                name: c["name"]?.stringValue ?? "?", pairs: pairs, text: c["text"]?.stringValue ?? "",
                expected: c["expected"]?.stringValue ?? "")
        }
    }

    @Test func fixture_isThere_andHasCases() throws {
        #expect(try Self.cases().count >= 15)
    }

    @Test(arguments: try cases())
    func sharedFixture_everyCase(_ c: Case) {
        let result = Vocabulary(c.pairs).apply(to: c.text)
        #expect(
            Array(result.unicodeScalars) == Array(c.expected.unicodeScalars),
            "\(c.name): \(result.debugDescription) != \(c.expected.debugDescription)")
    }
}
