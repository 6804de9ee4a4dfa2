import BridgeJSON
import BridgeSystem

/// The queue between the extension (through the host) and the CLI: "the
/// extension queues, the main app drains".
public protocol PendingQueueing: AnyObject {
    /// Appends an item and returns it with its new id; with a key already
    /// remembered for the same source, appends nothing and returns the
    /// earlier item as a duplicate.
    func append(_ item: NewQueueItem) throws(SuiteError) -> AppendResult
    /// Entries oldest first; only those saved for `url` when it is given.
    /// - Parameters:
    ///   - url: only items saved for this URL; nil for every item.
    ///   - excerptBytes: nil loads whole contents; otherwise at most that
    ///     many UTF-8 bytes of each (an excerpt, cut between characters).
    func entries(forURL url: String?, excerptBytes: Int?) throws(SuiteError) -> [QueueEntry]
    /// How many entries are waiting.
    func count() throws(SuiteError) -> Int
    /// Removes one entry and its content file.
    func remove(id: String) throws(SuiteError)
    /// Undo of a save: removes the item `id` if `source` saved it, and
    /// forgets its key so the same save can be made again. False when no
    /// such item of that source is waiting (drained, removed, never there).
    func withdraw(id: String, source: String) throws(SuiteError) -> Bool
}

extension PendingQueueing {
    /// Appends a page without a key; returns the new item.
    public func append(url: String, title: String?, content: String, source: String) throws(SuiteError) -> QueueItem {
        try append(NewQueueItem(url: url, title: title, content: content, source: source)).item
    }
}
