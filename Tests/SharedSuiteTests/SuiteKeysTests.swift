import Testing

@testable import SharedSuite

@Suite struct SuiteKeysTests {
    /// One rule for "enabled" in every reply: `extensionEnabled` as `bool(forKey:)` reads it,
    /// else the seed's key, else off.
    @Test func isEnabled_theOneRule() {
        #expect(!SuiteKeys.isEnabled(SuiteSnapshot()))
        #expect(SuiteKeys.isEnabled(SuiteSnapshot(values: ["user_defaults_suite_enabled": .bool(true)])))
        #expect(
            !SuiteKeys.isEnabled(
                SuiteSnapshot(values: ["user_defaults_suite_enabled": .bool(true), "extensionEnabled": .string("NO")])))
        #expect(SuiteKeys.isEnabled(SuiteSnapshot(values: ["extensionEnabled": .int(1)])))
        #expect(SuiteKeys.theme(SuiteSnapshot()) == "auto")
    }

    /// An app written against the seed opts in to its save keys by storing them: only the keys
    /// it stores are updated, and content over the limit is stored as "" (it is in the queue).
    @Test func updateSeedSaveKeys_onlyTheStoredOnes() {
        var none: [String: SuiteValue] = ["other": .int(1)]
        #expect(!SuiteKeys.updateSeedSaveKeys(url: "https://a/", content: "x", in: &none))
        #expect(none == ["other": .int(1)])
        var stored: [String: SuiteValue] = ["safari_saved_url": .string(""), "lastSharedText": .string("")]
        #expect(SuiteKeys.updateSeedSaveKeys(url: "https://a/", content: "x", in: &stored))
        #expect(stored == ["safari_saved_url": .string("https://a/"), "lastSharedText": .string("x")])
        let big = String(repeating: "y", count: SuiteKeys.seedSavedContentMaxBytes + 1)
        SuiteKeys.updateSeedSaveKeys(url: "https://b/", content: big, in: &stored)
        #expect(stored["lastSharedText"] == .string(""))
        #expect(stored["safari_saved_content"] == nil && stored["lastSharedURL"] == nil)
    }

    @Test func setEnabled_writesTheKey() {
        var values: [String: SuiteValue] = [:]
        SuiteKeys.setEnabled(true, in: &values)
        #expect(values == ["extensionEnabled": .bool(true)])
    }

    @Test func keepEnabledInStep_theKeyWrittenWins_theLegacyKeyIsNotCreated() {
        let both: [String: SuiteValue] = [
            "user_defaults_suite_enabled": .bool(false), "extensionEnabled": .bool(false),
        ]
        var values = both
        values["user_defaults_suite_enabled"] = .string("YES")  // read as bool(forKey:) reads it
        SuiteKeys.keepEnabledInStep(before: both, after: &values)
        #expect(values["extensionEnabled"] == .bool(true))
        let before = values
        values["extensionEnabled"] = .bool(false)
        SuiteKeys.keepEnabledInStep(before: before, after: &values)
        #expect(values["user_defaults_suite_enabled"] == .bool(false))
        var fresh: [String: SuiteValue] = ["extensionEnabled": .bool(true)]
        SuiteKeys.keepEnabledInStep(before: [:], after: &fresh)
        #expect(fresh["user_defaults_suite_enabled"] == nil)
        // Both written differently in one change: extensionEnabled wins.
        var twice = both
        twice["extensionEnabled"] = .bool(true)
        twice["user_defaults_suite_enabled"] = .bool(false)
        twice["theme"] = .string("x")
        SuiteKeys.keepEnabledInStep(before: both, after: &twice)
        #expect(twice["user_defaults_suite_enabled"] == .bool(true))
        // Not a Boolean, or deleted: the other key is left as it is.
        var odd = both
        odd["extensionEnabled"] = .array([])
        odd["user_defaults_suite_enabled"] = nil
        SuiteKeys.keepEnabledInStep(before: both, after: &odd)
        #expect(odd == ["extensionEnabled": .array([])])
        // Nothing written: nothing changes, even when the two disagree.
        var untouched: [String: SuiteValue] = [
            "user_defaults_suite_enabled": .bool(true), "extensionEnabled": .bool(false),
        ]
        SuiteKeys.keepEnabledInStep(before: untouched, after: &untouched)
        #expect(untouched["extensionEnabled"] == .bool(false))
    }
}
