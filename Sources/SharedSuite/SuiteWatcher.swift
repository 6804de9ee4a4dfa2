import BridgeSystem

/// Tells when a group container's suite may have changed, without waking
/// while nothing happens.
///
/// On Linux it waits on inotify (`FolderWatch`): a watch on the container
/// folder (for `suite.json` renamed in, written, or deleted) and one on its
/// parent (for the container itself replaced). While the container does not
/// exist yet, it watches the nearest folder above it that does and moves
/// down as the folders appear. Where notifications are unavailable it falls back to a
/// `stat` on a timer (`fallbackIntervalMilliseconds`), measured on the
/// injected monotonic clock.
///
/// It answers "maybe": the caller compares the suite's `ChangeToken` and
/// content to decide whether anything it publishes changed.
public final class SuiteWatcher {
    public let container: GroupContainer
    /// How often the fallback looks, in milliseconds.
    public let fallbackIntervalMilliseconds: Int64
    private let clock: MonotonicClock
    private let notifications: Bool
    private var changes: FolderChanges?

    /// - Parameters:
    ///   - container: the group container whose `suite.json` to watch.
    ///   - clock: measures the fallback's interval.
    ///   - fallbackIntervalMilliseconds: how often the fallback looks.
    ///   - notifications: false forces the `stat` fallback (tests, and
    ///     `EXTENSION_BRIDGE_WATCH=poll`).
    public init(
        container: GroupContainer, clock: MonotonicClock = .system, fallbackIntervalMilliseconds: Int64 = 250,
        notifications: Bool = true
    ) {
        self.container = container
        self.clock = clock
        self.fallbackIntervalMilliseconds = max(1, fallbackIntervalMilliseconds)
        self.notifications = notifications
    }

    /// True, once started, when changes arrive as notifications, not by looking on a timer.
    public var usesNotifications: Bool { changes?.descriptor != nil }

    /// Starts watching. Call before reading the state to compare against, so
    /// a change between the two is not missed.
    public func start() {
        guard changes == nil else { return }
        changes = FolderChanges(
            folder: container.path, notifications: notifications, clock: clock,
            intervalMilliseconds: fallbackIntervalMilliseconds)
    }

    /// The descriptor to wait on for notifications; nil in the fallback.
    public var descriptor: FileDescriptor? { changes?.descriptor }

    /// How long the caller may wait before calling `takeChanges()`: nil for
    /// ever (notifications wake it), else the time to the next fallback look.
    public func waitTimeoutMilliseconds() -> Int32? {
        changes?.millisecondsToNextLook.map { Int32(clamping: $0) }
    }

    /// Reads what happened since the last call. True when the suite may have
    /// changed: the caller then compares versions.
    public func takeChanges() -> Bool {
        let suiteName = FileSystem.lastComponent(container.suitePath)
        return changes?.take(isRelevant: { $0 == suiteName }) ?? false
    }
}
