import BridgeSystem

/// Changes in one folder, told by `FolderWatch` where notifications work and
/// found by looking on a timer where they do not (or once they stop: the
/// watch limit). The part `SuiteWatcher` and `QueueWatcher` share; each
/// says which names in the folder matter.
final class FolderChanges {
    private var watch: FolderWatch?
    private let clock: MonotonicClock
    private let intervalMilliseconds: Int64
    private var nextLook: Int64

    init(folder: String, notifications: Bool, clock: MonotonicClock, intervalMilliseconds: Int64) {
        self.clock = clock
        self.intervalMilliseconds = intervalMilliseconds
        if notifications { watch = FolderWatch(folder: folder) }
        nextLook = clock.milliseconds + intervalMilliseconds
    }

    /// The descriptor to wait on; nil while looking on the timer.
    var descriptor: FileDescriptor? { watch?.descriptor }

    /// How long until the timer's next look; nil while notifications tell.
    var millisecondsToNextLook: Int64? { watch == nil ? max(0, nextLook - clock.milliseconds) : nil }

    /// True when the folder may have changed since the last call: a relevant
    /// notification arrived, or the timer's look is due.
    func take(isRelevant: (String) -> Bool) -> Bool {
        guard let watch else {
            let now = clock.milliseconds
            if now < nextLook { return false }
            nextLook = now + intervalMilliseconds
            return true
        }
        switch watch.takeEvents(isRelevant: isRelevant) {
        case .nothing: return false
        case .changed: return true
        case .failed:
            self.watch = nil  // look on the timer from now on
            nextLook = clock.milliseconds + intervalMilliseconds
            return true
        }
    }
}
