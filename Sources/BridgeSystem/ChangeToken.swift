/// An opaque token for one version of stored data: equal tokens, same data.
/// Stores hand it out (`SuiteStore.changeToken()`); watchers compare it.
public struct ChangeToken: Hashable, Sendable {
    private enum Source: Hashable, Sendable {
        case file(FileIdentity)
        case counter(UInt64)
    }

    private let source: Source

    /// The token of one version of a file.
    public init(_ identity: FileIdentity) { source = .file(identity) }
    /// A token for stores that count their versions (in-memory stores).
    public init(counter: UInt64) { source = .counter(counter) }
}
