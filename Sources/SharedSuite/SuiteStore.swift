import BridgeSystem

/// What the host and the CLI need of a suite; the file-backed `Suite` and the
/// in-memory `MemorySuiteStore` both provide it.
public protocol SuiteStore: AnyObject {
    /// The current values. Cheap when nothing changed.
    func snapshot() throws(SuiteError) -> SuiteSnapshot
    /// Applies `change` to the newest values and stores the result atomically.
    func update(_ change: (inout [String: SuiteValue]) -> Void) throws(SuiteError)
    /// A token that changes whenever the stored suite changes (for watchers).
    func changeToken() throws(SuiteError) -> ChangeToken?
    /// Closes a replaced file the store still held open (costly for the
    /// kernel); call it when nobody is waiting, e.g. after a reply is sent.
    func releaseStaleFile()
}

extension SuiteStore {
    public func releaseStaleFile() {}
}
