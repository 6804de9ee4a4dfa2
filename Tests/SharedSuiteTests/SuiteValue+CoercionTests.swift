import BridgeSystem
import SharedSuite
import Testing

/// Typed reads coerce as `UserDefaults`' `bool(forKey:)`, `string(forKey:)`,
/// `integer(forKey:)` and `double(forKey:)` do (#15).
@Suite struct SuiteValueCoercionTests {
    @Test(arguments: [
        (SuiteValue.bool(true), true), (.bool(false), false), (.int(1), true), (.int(0), false), (.int(-3), true),
        (.double(0.5), true), (.double(0), false), (.string("YES"), true), (.string("yes"), true),
        (.string("true"), true), (.string("TRUE"), true), (.string("t"), true), (.string("1"), true),
        (.string("  +007"), true), (.string("NO"), false), (.string("false"), false), (.string("0"), false),
        (.string("000"), false), (.string(""), false), (.string("banana"), false), (.string("-1"), true),
    ])
    func bool_coercesLikeBoolForKey(value: SuiteValue, expected: Bool) {
        #expect(value.coercedBool == expected)
    }

    @Test func bool_otherTypesAreNotBooleans() {
        for value in [
            SuiteValue.data([1]), .date(WallTime(seconds: 0, nanoseconds: 0)), .array([.bool(true)]), .dictionary([:]),
        ] {
            #expect(value.coercedBool == nil)
        }
    }

    @Test(arguments: [
        (SuiteValue.string("dark"), "dark"), (.int(3), "3"), (.int(-12), "-12"), (.double(1.5), "1.5"),
        (.double(2), "2"), (.bool(true), "1"), (.bool(false), "0"),
    ])
    func string_coercesNumbers(value: SuiteValue, expected: String) {
        #expect(value.coercedString == expected)
    }

    @Test(arguments: [
        (SuiteValue.int(42), 42), (.string("42"), 42), (.string(" -17abc"), -17), (.string("abc"), 0),
        (.double(3.9), 3), (.double(-3.9), -3), (.bool(true), 1), (.string("99999999999999999999999"), Int.max),
    ])
    func int_coercesLikeIntegerForKey(value: SuiteValue, expected: Int) {
        #expect(value.coercedInt == expected)
    }

    @Test(arguments: [
        (SuiteValue.double(2.5), 2.5), (.int(2), 2.0), (.string("2.5"), 2.5), (.string("1e3x"), 1000.0),
        (.string("-0.25"), -0.25), (.string("x"), 0.0), (.bool(true), 1.0),
    ])
    func double_coercesLikeDoubleForKey(value: SuiteValue, expected: Double) {
        #expect(value.coercedDouble == expected)
    }

    @Test func snapshot_typedReadsCoerce_andMissingKeysAreNil() {
        let snapshot = SuiteSnapshot(values: [
            "extensionEnabled": .int(1), "extensionTheme": .int(3), "n": .string("7"),
        ])
        #expect(snapshot.bool("extensionEnabled") == true)
        #expect(SuiteKeys.isEnabled(snapshot))
        #expect(snapshot.string("extensionTheme") == "3")
        #expect(SuiteKeys.theme(snapshot) == "3")
        #expect(snapshot.int("n") == 7)
        #expect(snapshot.double("n") == 7)
        #expect(snapshot.bool("missing") == nil)
        #expect(SuiteKeys.theme(SuiteSnapshot(values: ["extensionTheme": .array([])])) == "auto")
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
