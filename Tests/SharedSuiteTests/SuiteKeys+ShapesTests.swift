import Testing

@testable import SharedSuite

@Suite struct SuiteKeysShapesTests {
    /// The host reads a vocabulary only from a dictionary, and only its word → string entries:
    /// an array or JSON numbers are stored but change nothing on a page, so they are named.
    @Test func vocabulary_ofAnotherShape_isAMismatch() {
        let array = SuiteKeys.mismatch(key: "vocabulary", value: .array([.string("blue"), .string("blauw")]))
        #expect(array?.found == "a value of type array")
        #expect(array?.effect.contains("empty vocabulary") == true)
        #expect(array?.fixArguments == "vocabulary -dict blue blauw red rood")
        let numbers = SuiteKeys.mismatch(
            key: "vocabulary", value: .dictionary(["blue": .int(1), "red": .string("rood")]))
        #expect(numbers?.found.contains("1 of 2 entries") == true)
        #expect(numbers?.found.contains("'blue' is int") == true)
        #expect(SuiteKeys.mismatch(key: "vocabulary", value: .dictionary(["blue": .string("blauw")])) == nil)
    }

    /// Booleans read as `bool(forKey:)` reads them: the `-bool` words are fine, "on" reads as false.
    @Test func enabled_readsAsBoolForKeyReads() {
        #expect(SuiteKeys.mismatch(key: "extensionEnabled", value: .bool(true)) == nil)
        #expect(SuiteKeys.mismatch(key: "extensionEnabled", value: .string("YES")) == nil)
        #expect(SuiteKeys.mismatch(key: "extensionEnabled", value: .string("on"))?.effect == "reads it as false")
        #expect(
            SuiteKeys.mismatch(key: "extensionEnabled", value: .array([]))?.fixArguments
                == "extensionEnabled -bool true")
        #expect(SuiteKeys.mismatch(key: "extensionTheme", value: .int(3)) == nil)
        #expect(SuiteKeys.mismatch(key: "extensionTheme", value: .dictionary([:])) != nil)
        #expect(SuiteKeys.mismatch(key: "myOwnKey", value: .array([])) == nil)
    }
}
