import BridgeJSON
import BridgeSystem
import SharedSuite

/// An in-memory suite for tests and previews. Not shared between processes.
public final class MemorySuiteStore: SuiteStore {
    /// Setting it directly counts as a change too (the token moves on).
    public var values: [String: SuiteValue] { didSet { generation += 1 } }
    /// When set, every read and write fails with it (fault injection in tests).
    public var failure: SuiteError?
    private var generation: UInt64 = 0

    public init(_ values: [String: SuiteValue] = [:]) { self.values = values }

    public func snapshot() throws(SuiteError) -> SuiteSnapshot {
        if let failure { throw failure }
        return SuiteSnapshot(values: values, version: token)
    }

    public func update(_ change: (inout [String: SuiteValue]) -> Void) throws(SuiteError) {
        if let failure { throw failure }
        var changed = values
        change(&changed)
        SuiteKeys.keepEnabledInStep(before: values, after: &changed)
        values = changed
    }

    public func changeToken() throws(SuiteError) -> ChangeToken? {
        if let failure { throw failure }
        return token
    }

    private var token: ChangeToken { ChangeToken(counter: generation) }
}
