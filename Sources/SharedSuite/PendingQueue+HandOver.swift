import BridgeSystem

extension PendingQueue {
    /// What handing one item over did.
    public enum HandOver: Equatable, Sendable {
        /// Given to the handler, which took it: removed.
        case handedOver
        /// Given to the handler, which did not take it: it stays queued.
        case kept
        /// Gone before it could be handed over (another drain, an undo).
        case vanished
        /// Unreadable, or written by a newer version: kept, with the reason.
        case unreadable(String)
    }

    /// How long a hand-over waits for another drain or watch handing an item over.
    public static let handOverWaitMilliseconds: Int64 = 30_000

    /// Hands the item `id` to `handle` the way `extension-bridge queue drain` does: under the
    /// queue's hand-over lock and the item's claim, so every item is handed over once however many
    /// drains, watches and apps run at the same time, and an undo from the extension cannot remove
    /// it halfway. The item is removed only when `handle` returns true.
    /// - Throws: `.lockTimeout` when another hand-over kept the lock `timeoutMilliseconds`; I/O errors.
    public func handOver(
        id: String, timeoutMilliseconds: Int64 = PendingQueue.handOverWaitMilliseconds, to handle: (QueueItem) -> Bool
    ) throws(SuiteError) -> HandOver {
        let lock = try lockForHandOver(timeoutMilliseconds: timeoutMilliseconds)
        defer { lock.release() }
        let claim = try claim(id: id, timeoutMilliseconds: timeoutMilliseconds)
        defer { claim.release() }
        guard let entry = try load(id: id, excerptBytes: nil) else { return .vanished }
        switch entry {
        case .item(let item):
            guard handle(item) else { return .kept }
            do throws(SuiteError) {
                try remove(id: id)
            } catch {
                if case .io(let e) = error, e.isNotFound { return .handedOver }
                throw error
            }
            return .handedOver
        case .unsupported(_, let version):
            return .unreadable("formatVersion \(version) is newer than this version of SharedSuite reads; upgrade it")
        case .unreadable(_, let reason):
            return .unreadable(reason)
        }
    }

    /// Hands every item in the queue to `handle`, oldest first (``handOver(id:timeoutMilliseconds:to:)``).
    /// Items `handle` refuses, and unreadable ones, stay. Returns how many were handed over.
    @discardableResult
    public func drain(
        timeoutMilliseconds: Int64 = PendingQueue.handOverWaitMilliseconds, _ handle: (QueueItem) -> Bool
    ) throws(SuiteError) -> Int {
        var handed = 0
        for id in try ids()
        where try handOver(id: id, timeoutMilliseconds: timeoutMilliseconds, to: handle) == .handedOver {
            handed += 1
        }
        return handed
    }
}
