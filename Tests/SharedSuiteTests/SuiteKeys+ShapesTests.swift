import Testing

@testable import SharedSuite

@Suite struct SuiteKeysShapesTests {
    /// The host reads a vocabulary only from a dictionary, and only its word → string entries:
    /// an array or JSON numbers are stored but change nothing on a page, so they are named.
    @Test func vocabulary_ofAnotherShape_isAMismatch() {
        let array = SuiteKeys.mismatch(key: "vocabulary", value: .array([.string("blue"), .string("blauw")]))
        #expect(array?.found == "a value of type array")
        #expect(array?.effect.contains("empty vocabulary") == true)
        // The array's pairs are the dictionary it meant: the fix keeps every word.
        #expect(array?.suggested == .dictionary(["blue": .string("blauw")]))
        let numbers = SuiteKeys.mismatch(
            key: "vocabulary", value: .dictionary(["blue": .int(1), "red": .string("rood")]))
        #expect(numbers?.found.contains("1 of 2 entries") == true)
        #expect(numbers?.found.contains("'blue' is int") == true)
        #expect(numbers?.suggested == .dictionary(["blue": .string("1"), "red": .string("rood")]))
        // No value keeps an odd array, a nested one or an empty word: no suggestion.
        #expect(SuiteKeys.mismatch(key: "vocabulary", value: .array([.string("a")]))?.suggested == nil)
        let nested = SuiteKeys.mismatch(key: "vocabulary", value: .dictionary(["a": .array([]), "b": .string("c")]))
        #expect(nested != nil && nested?.suggested == nil)
        #expect(SuiteKeys.mismatch(key: "vocabulary", value: .dictionary(["blue": .string("blauw")])) == nil)
    }

    /// Booleans read as `bool(forKey:)` reads them: the `-bool` words are fine, "on" reads as false.
    @Test func enabled_readsAsBoolForKeyReads() {
        #expect(SuiteKeys.mismatch(key: "extensionEnabled", value: .bool(true)) == nil)
        #expect(SuiteKeys.mismatch(key: "extensionEnabled", value: .string("YES")) == nil)
        #expect(SuiteKeys.mismatch(key: "extensionEnabled", value: .string("on"))?.effect == "reads it as false")
        #expect(
            SuiteKeys.mismatch(key: "extensionEnabled", value: .array([]))?.suggested == .bool(true))
        #expect(SuiteKeys.mismatch(key: "extensionTheme", value: .int(3)) == nil)
        #expect(SuiteKeys.mismatch(key: "extensionTheme", value: .dictionary([:])) != nil)
        #expect(SuiteKeys.mismatch(key: "myOwnKey", value: .array([])) == nil)
    }
}
