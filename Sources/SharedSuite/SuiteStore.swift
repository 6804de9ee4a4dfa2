import BridgeSystem

/// What the host and the CLI need of a suite; the file-backed `Suite` and the
/// in-memory `MemorySuiteStore` both provide it.
public protocol SuiteStore: AnyObject {
    /// The current values. Cheap when nothing changed.
    func snapshot() throws(SuiteError) -> SuiteSnapshot
    /// Applies `change` to the newest values and stores the result atomically.
    func update(_ change: (inout [String: SuiteValue]) -> Void) throws(SuiteError)
    /// A token that changes whenever the stored suite changes (for watchers).
    func changeToken() throws(SuiteError) -> FileIdentity?
    /// Closes a replaced file the store still held open (costly for the
    /// kernel); call it when nobody is waiting, e.g. after a reply is sent.
    func releaseStaleFile()
}

extension SuiteStore {
    public func releaseStaleFile() {}
}

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
        return SuiteSnapshot(values: values, identity: token)
    }

    public func update(_ change: (inout [String: SuiteValue]) -> Void) throws(SuiteError) {
        if let failure { throw failure }
        change(&values)
    }

    public func changeToken() throws(SuiteError) -> FileIdentity? {
        if let failure { throw failure }
        return token
    }

    private var token: FileIdentity {
        var info = stat()
        info.st_ino = .init(truncatingIfNeeded: generation)
        return FileIdentity(info)
    }
}
