import BridgeJSON
import BridgeSystem
import Testing

@testable import SharedSuite

@Suite struct SuiteIndexTests {
    /// The index keeps plain keys as sorted byte ranges and binary-searches
    /// them; any other key makes it a dictionary. Every order and kind of key
    /// must read as `decode` reads it.
    @Test(arguments: [
        #""a":1,"b":2,"c":3"#,  // the writer's order
        #""c":3,"a":1,"b":2"#,  // any other order
        #""b":1,"a":2,"b":3,"a":4"#,  // repeated keys: the last wins
        #""k":1,"K":2,"":3,"kk":4"#,  // empty and case-different keys
        #""caf\u00e9":1,"cafe":2"#,  // an escaped key: the dictionary
        #""blå":1,"bla":2"#,  // a key outside ASCII: the dictionary
        #""\u0061":1,"a":2"#,  // the same key escaped and plain: the last wins
    ])
    func index_readsEveryOrderAndKindOfKey(values: String) throws {
        let text = suiteDocument(values)
        expectAgreement(text, duplicateKeys: true)
        let snapshot = try Suite.snapshot(ofFile: Array(text.utf8), path: suiteFilePath)
        #expect(snapshot["missing"] == nil)
        // KELVIN SIGN is "K" to a String: found as the decoded dictionary finds it.
        #expect(snapshot["\u{212A}"] == (try Suite.decode(Array(text.utf8), path: suiteFilePath))["K"])
    }

    @Test func index_ofManyUnsortedKeys_findsEachAndMissesOthers() throws {
        var random = SplitMix(seed: 7)
        var keys: [String] = (0..<500).map { "key\($0)" }
        for i in stride(from: keys.count - 1, to: 0, by: -1) { keys.swapAt(i, random.below(i + 1)) }
        let text = suiteDocument(keys.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ","))
        let snapshot = try Suite.snapshot(ofFile: Array(text.utf8), path: suiteFilePath)
        for (i, key) in keys.enumerated() { #expect(snapshot.int(key) == i) }
        #expect(snapshot["key500"] == nil && snapshot["key"] == nil && snapshot["key00"] == nil)
        #expect(snapshot.keys.count == 500)
    }
}
