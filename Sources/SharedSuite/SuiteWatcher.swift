import BridgeSystem

/// Tells when a group container's suite may have changed, without waking
/// while nothing happens.
///
/// On Linux it waits on inotify: a watch on the container folder (for
/// `suite.json` renamed in, written, or deleted) and one on its parent (for
/// the container itself replaced). While the container does not exist yet,
/// it watches the nearest folder above it that does and moves down as the
/// folders appear. Where notifications are unavailable it falls back to a
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
    private var watch: DirectoryWatch?
    /// What each watch number watches.
    private var watched: [(watch: Int32, path: String)] = []
    private var nextFallbackCheck: Int64 = 0
    private var started = false

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
        if notifications { watch = try? DirectoryWatch() }
    }

    /// True when changes arrive as notifications, not by looking on a timer.
    public var usesNotifications: Bool { watch != nil }

    /// Starts watching. Call before reading the state to compare against, so
    /// a change between the two is not missed.
    public func start() {
        guard !started else { return }
        started = true
        arm()
        nextFallbackCheck = clock.milliseconds + fallbackIntervalMilliseconds
    }

    /// The descriptor to wait on for notifications; nil in the fallback.
    public var descriptor: FileDescriptor? { started ? watch?.descriptor : nil }

    /// How long the caller may wait before calling `takeChanges()`: nil for
    /// ever (notifications wake it), else the time to the next fallback look.
    public func waitTimeoutMilliseconds() -> Int32? {
        guard started, watch == nil else { return nil }
        let left = nextFallbackCheck - clock.milliseconds
        return Int32(clamping: max(0, left))
    }

    /// Reads what happened since the last call. True when the suite may have
    /// changed: the caller then compares versions.
    public func takeChanges() -> Bool {
        guard started else { return false }
        guard let watch else {
            let now = clock.milliseconds
            if now < nextFallbackCheck { return false }
            nextFallbackCheck = now + fallbackIntervalMilliseconds
            return true
        }
        let events = watch.readEvents()
        if events.isEmpty { return false }
        var changed = false
        var rearm = false
        let containerName = FileSystem.lastComponent(container.path)
        let suiteName = FileSystem.lastComponent(container.suitePath)
        for event in events {
            if event.overflow {
                changed = true
                rearm = true
                continue
            }
            guard let path = watched.first(where: { $0.watch == event.watch })?.path else { continue }
            if event.folderGone {
                changed = true
                rearm = true
            } else if path == container.path {
                if event.name == suiteName { changed = true }
            } else if path == FileSystem.parentPath(container.path) && watched.count == 2 {
                if event.name == containerName {
                    changed = true
                    rearm = true
                }
            } else {
                // Watching a folder above a container that does not exist yet:
                // something appeared on the way down.
                changed = true
                rearm = true
            }
        }
        if rearm { arm() }
        return changed
    }

    /// Watches the container and its parent, or the nearest existing folder
    /// above a missing container. Falls back to the timer when a watch
    /// cannot be added (for example the per-user watch limit).
    private func arm() {
        guard let watch else { return }
        for entry in watched { watch.remove(entry.watch) }
        watched = []
        do throws(SystemError) {
            let parent = FileSystem.parentPath(container.path)
            if (try? FileSystem.status(container.path, followLinks: true))?.isDirectory == true {
                watched.append((try watch.add(container.path), container.path))
                watched.append((try watch.add(parent), parent))
                return
            }
            var folder = parent
            while (try? FileSystem.status(folder, followLinks: true))?.isDirectory != true {
                let up = FileSystem.parentPath(folder)
                if up == folder { break }
                folder = up
            }
            watched.append((try watch.add(folder), folder))
        } catch {
            self.watch = nil  // the fallback: look on a timer
            watched = []
        }
    }
}
