import BridgeSystem
import SharedSuite
import Testing

/// Typed reads coerce as `UserDefaults`' `bool(forKey:)`, `string(forKey:)`,
/// `integer(forKey:)` and `double(forKey:)` do: an app written against `UserDefaults` may
/// store `1` or `"YES"` for a flag, and the host must read it as that app would.
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
}
