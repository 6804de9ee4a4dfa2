import BridgeJSON
import BridgeSystem

extension ProjectUpgrader {
    /// One rename done, to undo if a later one fails.
    private enum Done {
        case moved(from: String, to: String)
        case placed(String)
    }

    /// Carries out `plan`. Every new file is first written in full into a
    /// staging folder (`.extension-bridge/.upgrade-…`); then each change is
    /// one rename (an old file into staging, the new one into place), the
    /// record last. If any step fails, the renames done are undone in
    /// reverse and the staging folder removed: the project is as it was.
    /// - Throws: `GeneratorError.io` (74) naming what failed.
    public func apply(_ plan: UpgradePlan) throws(GeneratorError) {
        let recordFolder = project + "/" + FileSystem.parentPath(CoreRecord.path)
        let staging = recordFolder + "/.upgrade-" + FileSystem.hex(Platform.randomBytes(6))
        var createdFolders: [String] = []
        var done: [Done] = []
        func makeFolders(_ folder: String) throws(SystemError) {
            var missing: [String] = []
            var current = folder
            while current.count > project.count, (try FileSystem.status(current)) == nil {
                missing.append(current)
                current = FileSystem.parentPath(current)
            }
            for path in missing.reversed() {
                try FileSystem.makeDirectory(path, permissions: 0o755)
                createdFolders.append(path)
            }
        }
        do {
            try makeFolders(recordFolder)
            try FileSystem.makeDirectory(staging, permissions: 0o700)
            // 1. Everything new, written in full where nothing reads it yet.
            for (index, write) in plan.writes.enumerated() {
                try makeFolders(FileSystem.parentPath(project + "/" + write.file.path))
                try FileSystem.writeAtomically(
                    staging + "/new-\(index)", write.file.bytes, permissions: write.file.permissions)
            }
            try FileSystem.writeAtomically(
                staging + "/record", JSONWriter.prettyBytes(plan.record.json), permissions: 0o644)
            // 2. One rename per change.
            func rename(_ from: String, _ to: String) throws(SystemError) {
                try move(from, to)
                done.append(.moved(from: from, to: to))
            }
            for path in plan.keptAsOrig { try rename(project + "/" + path, project + "/" + path + ".orig") }
            for (index, path) in plan.removals.enumerated() {
                try rename(project + "/" + path, staging + "/old-r\(index)")
            }
            for (index, write) in plan.writes.enumerated() {
                let target = project + "/" + write.file.path
                if write.replaces && !plan.keptAsOrig.contains(write.file.path) {
                    try rename(target, staging + "/old-\(index)")
                }
                try move(staging + "/new-\(index)", target)
                done.append(.placed(target))
            }
            let recordPath = project + "/" + CoreRecord.path
            if (try FileSystem.status(recordPath)) != nil { try rename(recordPath, staging + "/old-record") }
            try move(staging + "/record", recordPath)
            done.append(.placed(recordPath))
        } catch {
            for step in done.reversed() {
                switch step {
                case .moved(let from, let to): try? FileSystem.move(to, from)
                case .placed(let path): try? FileSystem.remove(path)
                }
            }
            try? FileSystem.removeTree(staging)
            for folder in createdFolders.reversed() { FileSystem.removeEmptyDirectory(folder) }
            throw .io(error)
        }
        try? FileSystem.removeTree(staging)
    }
}
