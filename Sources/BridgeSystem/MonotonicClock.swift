/// The one clock for intervals and deadlines: monotonic, never for dates.
/// Passed in where code waits or measures, so tests can move time by hand.
public struct MonotonicClock: Sendable {
    /// Nanoseconds since an arbitrary fixed point.
    public var nanoseconds: @Sendable () -> Int64

    public init(nanoseconds: @escaping @Sendable () -> Int64) { self.nanoseconds = nanoseconds }

    /// Milliseconds since the same fixed point.
    public var milliseconds: Int64 { nanoseconds() / 1_000_000 }

    /// `CLOCK_MONOTONIC`.
    public static let system = MonotonicClock {
        var ts = _timespec()
        system_clock_gettime(_CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
