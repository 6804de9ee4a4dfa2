import Testing

@testable import BridgeSystem

@Suite struct WallTimeTests {
    /// Against Python's email.utils.formatdate for the same instants.
    @Test(arguments: [
        (Int64(0), "Thu, 01 Jan 1970 00:00:00 +0000"), (1_796_110_680, "Tue, 01 Dec 2026 07:38:00 +0000"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 +0000"), (-86_400, "Wed, 31 Dec 1969 00:00:00 +0000"),
    ])
    func rfc2822_writesDebianChangelogDates(seconds: Int64, expected: String) {
        #expect(WallTime(seconds: seconds).rfc2822 == expected)
    }
}
