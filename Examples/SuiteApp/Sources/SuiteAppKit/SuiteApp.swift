import SharedSuite

/// A Swift app's side of the group it shares with its extension: what a "main app" does with
/// `UserDefaults(suiteName:)` and the group container, done through SharedSuite so the
/// extension's host reads exactly what the app wrote (docs/SUITE.md, "From your Swift app").
public struct SuiteApp {
    /// The app group the app and its extension share (`bridge.json`'s `group`).
    public static let groupID = "group.org.example.suiteapp"

    public let container: GroupContainer
    public let suite: Suite
    public let queue: PendingQueue

    /// Opens the group: `EXTENSION_BRIDGE_CONTAINER` when set, else the platform's folder for
    /// `groupID` (Linux: `$XDG_DATA_HOME/<group>`; macOS: `~/Library/Group Containers/<group>`).
    public init(groupID: String = SuiteApp.groupID) throws(SuiteError) {
        container = try GroupContainer(groupID: groupID)
        try container.create()
        suite = Suite(container: container)
        queue = PendingQueue(container: container)
    }

    /// Writes the vocabulary the extension rewrites pages with, and turns the extension on: one
    /// write, under the suite's lock, atomic.
    public func publish(vocabulary: [String: String]) throws(SuiteError) {
        try suite.update { values in
            values[SuiteKeys.vocabulary] = .dictionary(vocabulary.mapValues { .string($0) })
            SuiteKeys.setEnabled(true, in: &values)
        }
    }

    /// Turns the extension on or off through seed 002's own key, as an app written against the
    /// seed does (`set(on, forKey: "user_defaults_suite_enabled")`). `extensionEnabled` follows:
    /// the last write of either key wins.
    public func setSeedEnabled(_ on: Bool) throws(SuiteError) {
        try suite.update { $0[SuiteKeys.legacyEnabled] = .bool(on) }
    }

    /// What the extension sees: enabled by the one rule every reply uses, and the vocabulary.
    public func status() throws(SuiteError) -> (enabled: Bool, vocabulary: [String: String]) {
        let snapshot = try suite.snapshot()
        let words = (snapshot.dictionary(SuiteKeys.vocabulary) ?? [:]).compactMapValues(\.coercedString)
        return (SuiteKeys.isEnabled(snapshot), words)
    }

    /// Puts a file in the group's shared files (`files/NAME`), replacing it atomically.
    public func share(_ name: String, text: String) throws(SuiteError) {
        try SharedFiles(container: container).write(name, utf8: text)
    }

    /// Hands every saved item to `handle`, oldest first; each one it returns true for is removed.
    /// Safe beside `extension-bridge queue drain|watch` and other copies of the app: every item is
    /// handed over once.
    @discardableResult
    public func drain(_ handle: (QueueItem) -> Bool) throws(SuiteError) -> Int {
        try queue.drain(handle)
    }

    /// Waits for saved items and drains them as they arrive, until `count` were handed over or
    /// `maxLooks` looks passed (a look ends when something happened in the queue folder, or after
    /// `lookMilliseconds`). The watcher starts before the first look, so an item saved in between
    /// is not missed. An app would run this loop on a thread of its own, without a `count`.
    @discardableResult
    public func watch(
        until count: Int, lookMilliseconds: Int32 = 250, maxLooks: Int, _ handle: (QueueItem) -> Bool
    ) throws(SuiteError) -> Int {
        let watcher = QueueWatcher(container: container)
        var handed = try drain(handle)
        var looks = 0
        while handed < count, looks < maxLooks {
            // "Something may have arrived", a timeout, or only the hand-over's own lock files:
            // looking again is cheap, so every wake-up looks.
            _ = watcher.wait(timeoutMilliseconds: lookMilliseconds)
            looks += 1
            handed += try drain(handle)
        }
        return handed
    }
}
