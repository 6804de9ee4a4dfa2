import BridgeJSON
import BridgeSystem
import SharedSuite

/// A monotonic clock a test moves by hand.
public final class ManualClock: @unchecked Sendable {
    private var nanoseconds: Int64 = 1_000_000_000

    public init() {}

    public var clock: MonotonicClock { MonotonicClock { [self] in nanoseconds } }

    public func advance(milliseconds: Int64) { nanoseconds += milliseconds * 1_000_000 }
}
