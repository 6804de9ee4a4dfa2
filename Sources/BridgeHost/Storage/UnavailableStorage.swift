import BridgeSystem
import SharedSuite

/// The storage of a host whose group container cannot be resolved (no HOME,
/// a bad group id): every read and write fails with the same error, so each
/// storage action answers `storage_error` and the host keeps serving `hello`.
final class UnavailableStorage: SuiteStore, PendingQueueing {
    let failure: SuiteError

    init(_ failure: SuiteError) { self.failure = failure }

    func snapshot() throws(SuiteError) -> SuiteSnapshot { throw failure }
    func update(_ change: (inout [String: SuiteValue]) -> Void) throws(SuiteError) { throw failure }
    func changeToken() throws(SuiteError) -> ChangeToken? { throw failure }
    func append(_ item: NewQueueItem) throws(SuiteError) -> AppendResult { throw failure }
    func withdraw(id: String, source: String) throws(SuiteError) -> Bool { throw failure }
    func entries(forURL url: String?, excerptBytes: Int?) throws(SuiteError) -> [QueueEntry] { throw failure }
    func count() throws(SuiteError) -> Int { throw failure }
    func remove(id: String) throws(SuiteError) { throw failure }
}
