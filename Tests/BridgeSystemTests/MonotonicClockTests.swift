import Testing

@testable import BridgeSystem

@Suite struct MonotonicClockTests {
    @Test func systemClock_neverGoesBack() {
        var last = MonotonicClock.system.nanoseconds()
        for _ in 0..<1000 {
            let now = MonotonicClock.system.nanoseconds()
            #expect(now >= last)
            last = now
        }
    }

    /// Deadlines are counted in milliseconds of the injected clock: whole milliseconds, rounded down.
    @Test func milliseconds_areTheInjectedNanosecondsRoundedDown() {
        #expect(MonotonicClock { 1_999_999 }.milliseconds == 1)
        #expect(MonotonicClock { 2_000_000 }.milliseconds == 2)
        #expect(MonotonicClock { 0 }.milliseconds == 0)
    }
}
