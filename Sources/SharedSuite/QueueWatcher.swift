import BridgeSystem

/// Tells when items may have arrived in a group container's queue, without
/// waking while nothing happens.
///
/// On Linux it waits on inotify (`FolderWatch`): a watch on `queue/` (items are renamed into
/// it when complete) and one on the container (for `queue/` itself created or
/// replaced). While the queue folder does not exist yet, it watches the
/// nearest folder above it that does and moves down as the folders appear.
/// Where notifications are unavailable it falls back to looking on a timer
/// (`fallbackIntervalMilliseconds`). It answers "maybe": the caller lists the
/// queue to see what is new.
public final class QueueWatcher {
    public let container: GroupContainer
    /// How often the fallback looks, in milliseconds.
    public let fallbackIntervalMilliseconds: Int64
    private let changes: FolderChanges

    /// - Parameters:
    ///   - container: the group container whose `queue/` to watch.
    ///   - clock: measures the fallback's interval.
    ///   - fallbackIntervalMilliseconds: how often the fallback looks.
    ///   - notifications: false forces the timer fallback (tests, and
    ///     `EXTENSION_BRIDGE_WATCH=poll`).
    public init(
        container: GroupContainer, clock: MonotonicClock = .system, fallbackIntervalMilliseconds: Int64 = 250,
        notifications: Bool = true
    ) {
        self.container = container
        self.fallbackIntervalMilliseconds = max(1, fallbackIntervalMilliseconds)
        changes = FolderChanges(
            folder: container.queuePath, notifications: notifications, clock: clock,
            intervalMilliseconds: self.fallbackIntervalMilliseconds)
    }

    /// True when arrivals are notified, not found by looking on a timer.
    public var usesNotifications: Bool { changes.descriptor != nil }

    /// Waits until something may have arrived.
    /// - Parameter timeoutMilliseconds: the longest wait; nil waits until then.
    /// - Returns: true when the caller should look at the queue; false on a
    ///   timeout or an interrupting signal.
    public func wait(timeoutMilliseconds: Int32?) -> Bool {
        if let descriptor = changes.descriptor {
            let ready = try? FileDescriptor.waitForInput([descriptor], timeoutMilliseconds: timeoutMilliseconds)
            guard case .ready? = ready else { return false }
        } else if let left = changes.millisecondsToNextLook {
            let sleep = min(Int64(timeoutMilliseconds ?? Int32.max), left)
            if sleep > 0 { Platform.sleep(milliseconds: Int(sleep)) }
        }
        // Items are renamed in; the hand-over lock and `.incoming` are not items.
        return changes.take(isRelevant: { !$0.hasPrefix(".") })
    }
}
