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
    private let clock: MonotonicClock
    private var watch: FolderWatch?
    private var nextFallbackCheck: Int64 = 0

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
        self.clock = clock
        self.fallbackIntervalMilliseconds = max(1, fallbackIntervalMilliseconds)
        if notifications { watch = FolderWatch(folder: container.queuePath) }
        nextFallbackCheck = clock.milliseconds + self.fallbackIntervalMilliseconds
    }

    /// True when arrivals are notified, not found by looking on a timer.
    public var usesNotifications: Bool { watch != nil }

    /// Waits until something may have arrived.
    /// - Parameter timeoutMilliseconds: the longest wait; nil waits until then.
    /// - Returns: true when the caller should look at the queue; false on a
    ///   timeout or an interrupting signal.
    public func wait(timeoutMilliseconds: Int32?) -> Bool {
        guard let watch else {
            let left = nextFallbackCheck - clock.milliseconds
            let sleep = min(Int64(timeoutMilliseconds ?? Int32.max), max(0, left))
            if sleep > 0 { Platform.sleep(milliseconds: Int(sleep)) }
            guard clock.milliseconds >= nextFallbackCheck else { return false }
            nextFallbackCheck = clock.milliseconds + fallbackIntervalMilliseconds
            return true
        }
        let ready = try? FileDescriptor.waitForInput([watch.descriptor], timeoutMilliseconds: timeoutMilliseconds)
        guard case .ready? = ready else { return false }
        // Items are renamed in; the hand-over lock and `.incoming` are not items.
        switch watch.takeEvents(isRelevant: { !$0.hasPrefix(".") }) {
        case .nothing: return false
        case .changed: return true
        case .failed:
            self.watch = nil  // look on the timer from now on
            nextFallbackCheck = clock.milliseconds + fallbackIntervalMilliseconds
            return true
        }
    }
}
