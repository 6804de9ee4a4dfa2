import BridgeSystem

/// Reads the bundled extension and writes a generated project: everything
/// into a temporary folder beside the target, then one rename, so a failure
/// leaves nothing half-written.
public enum ProjectWriter {
    /// The files under `folder` (relative paths), skipping `node_modules` and
    /// links; regular files only.
    public static func readTree(_ folder: String) throws(GeneratorError) -> [GeneratedFile] {
        var out: [GeneratedFile] = []
        func walk(_ relative: String) throws(SystemError) {
            let absolute = relative.isEmpty ? folder : folder + "/" + relative
            for name in try FileSystem.listDirectory(absolute).sorted() where name != "node_modules" {
                let path = relative.isEmpty ? name : relative + "/" + name
                guard let info = try FileSystem.status(folder + "/" + path) else { continue }
                if info.isDirectory {
                    try walk(path)
                } else if info.isRegular {
                    let bytes = try FileSystem.readFile(folder + "/" + path, noFollow: true, limit: 16 << 20)
                    out.append(GeneratedFile(path, bytes, permissions: info.permissions & 0o111 != 0 ? 0o755 : 0o644))
                }
            }
        }
        do {
            try walk("")
        } catch {
            throw .missing("cannot read the bundled extension at \(folder): \(error)")
        }
        return out
    }

    /// Writes `files` as the folder `target`.
    /// - Parameter force: replace an existing `target`; the old folder is kept
    ///   beside it as `<target>.old-<time>`, never deleted.
    /// - Returns: where an existing folder was moved, if one was.
    @discardableResult
    public static func write(_ files: [GeneratedFile], to target: String, force: Bool) throws(GeneratorError) -> String?
    {
        let exists = (try? FileSystem.status(target)) != nil
        if exists && !force { throw .folderExists(target) }
        let parent = FileSystem.parentPath(target)
        let temporary =
            parent + "/." + FileSystem.lastComponent(target) + ".new-" + FileSystem.hex(Platform.randomBytes(6))
        do {
            try FileSystem.makeDirectories(parent, permissions: 0o755)
            try FileSystem.makeDirectory(temporary, permissions: 0o755)
            for file in files {
                let path = temporary + "/" + file.path
                try FileSystem.makeDirectories(FileSystem.parentPath(path), permissions: 0o755)
                if let target = file.linkTarget {
                    try FileSystem.makeSymbolicLink(path, pointingTo: target)
                } else {
                    try FileSystem.writeAtomically(path, file.bytes, permissions: file.permissions)
                }
            }
            var movedAside: String?
            if exists {
                let aside = target + ".old-" + String(WallTime.now().seconds)
                try FileSystem.move(target, aside)
                movedAside = aside
            }
            try FileSystem.move(temporary, target)
            return movedAside
        } catch {
            try? FileSystem.removeTree(temporary)
            throw .io(error)
        }
    }
}
