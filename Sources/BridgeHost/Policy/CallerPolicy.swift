import BridgeProtocol

/// The callers the host serves: origins (`chrome-extension://ID/`) and
/// Firefox add-on ids. With an empty list nobody is served.
public struct CallerPolicy: Equatable, Sendable {
    /// The allowed callers, in order without repeats. An array, not a set:
    /// the list is a handful of entries, and instantiating a generic Set was
    /// a sixth of a one-shot host's start-up.
    public var allowed: [String]
    /// Where the list came from, for messages.
    public var source: String

    public init(allowed: [String], source: String) {
        self.allowed = allowed
        self.source = source
    }

    /// True when `caller` may use the host.
    public func allows(_ caller: Caller) -> Bool { allowed.contains(caller.identity) }
}
