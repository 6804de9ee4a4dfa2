import BridgeSystem

/// The inotify part that `SuiteWatcher` and `QueueWatcher` share: a watch on
/// `folder` and one on its parent (for the folder itself created, replaced or
/// removed) or, while `folder` does not exist, one on the nearest folder
/// above it, moving down as the folders on the way appear.
final class FolderWatch {
    /// What happened since the last look.
    enum Outcome: Equatable {
        /// Nothing that matters.
        case nothing
        /// A relevant name in the folder changed, or the folder (or one on the
        /// way down to it) appeared, was replaced or vanished: look.
        case changed
        /// Watches could no longer be added (for example the per-user limit):
        /// look, and look on a timer from now on.
        case failed
    }

    let folder: String
    private let watch: DirectoryWatch
    /// What each watch number watches: the folder and its parent, or one folder above.
    private var watched: [(watch: Int32, path: String)] = []

    /// Nil when notifications are unavailable here (no inotify, or no watch can be added).
    init?(folder: String) {
        guard let watch = try? DirectoryWatch() else { return nil }
        self.folder = folder
        self.watch = watch
        guard arm() else { return nil }
    }

    /// Readable when events are waiting.
    var descriptor: FileDescriptor { watch.descriptor }

    /// Reads the waiting events. A change of a name in the folder counts
    /// when `isRelevant(name)` holds.
    func takeEvents(isRelevant: (String) -> Bool) -> Outcome {
        var changed = false
        var rearm = false
        for event in watch.readEvents() {
            if event.overflow {
                changed = true
                rearm = true
                continue
            }
            // Events of a watch already removed (the IN_IGNORED that removing
            // it sends) are not news: acting on them would re-arm for ever.
            guard let path = watched.first(where: { $0.watch == event.watch })?.path else { continue }
            if event.folderGone {
                changed = true
                rearm = true
            } else if path == folder {
                if isRelevant(event.name) { changed = true }
            } else if event.name == nextName(below: path) {
                // The parent: the folder itself came or went. A folder above a
                // missing one: the next folder on the way down came.
                changed = true
                rearm = true
            }
        }
        if rearm && !arm() { return .failed }
        return changed ? .changed : .nothing
    }

    /// The name of the folder under `ancestor` on the way to `folder`.
    private func nextName(below ancestor: String) -> String? {
        let prefix = ancestor.hasSuffix("/") ? ancestor : ancestor + "/"
        guard folder.hasPrefix(prefix) else { return nil }
        return folder.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
    }

    private func isFolder(_ path: String) -> Bool {
        (try? FileSystem.status(path, followLinks: true))?.isDirectory == true
    }

    /// Watches the folder and its parent, or the nearest existing folder above it.
    private func arm() -> Bool {
        for entry in watched { watch.remove(entry.watch) }
        watched = []
        do throws(SystemError) {
            let parent = FileSystem.parentPath(folder)
            if isFolder(folder) {
                watched.append((try watch.add(folder), folder))
                watched.append((try watch.add(parent), parent))
                return true
            }
            var above = parent
            while !isFolder(above) {
                let up = FileSystem.parentPath(above)
                if up == above { break }
                above = up
            }
            watched.append((try watch.add(above), above))
            return true
        } catch {
            watched = []
            return false
        }
    }
}
