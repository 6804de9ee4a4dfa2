import BridgeSystem

/// The files under a folder, each with what changes when it changes (`FileIdentity`):
/// `run` takes one every few hundred milliseconds and compares it with the last. Looking
/// costs one `stat` per file; a project's sources are hundreds of files, not millions.
public struct SourceTree: Equatable, Sendable {
    /// Which files count.
    public struct Rule: Sendable {
        public var root: String
        /// Whether a file's name counts.
        public var includes: @Sendable (String) -> Bool
        /// Folder names never entered (anywhere below the root); hidden folders never are.
        public var skippedFolders: Set<String>

        public init(root: String, includes: @escaping @Sendable (String) -> Bool, skippedFolders: Set<String>) {
            self.root = root
            self.includes = includes
            self.skippedFolders = skippedFolders
        }
    }

    /// Path inside the root → identity.
    public var files: [String: FileIdentity]

    public init(files: [String: FileIdentity] = [:]) { self.files = files }

    /// The files `rule` counts, now. Hidden files and folders are left out; a folder that
    /// cannot be read is skipped (it is looked at again next time).
    public static func scan(_ rule: Rule) -> SourceTree {
        var files: [String: FileIdentity] = [:]
        func walk(_ relative: String) {
            let folder = relative.isEmpty ? rule.root : rule.root + "/" + relative
            guard let names = try? FileSystem.listDirectory(folder) else { return }
            for name in names where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                // A linked folder is not entered (a link to a parent would never end); a linked
                // file counts by what it points at, so an edit through the link is seen.
                guard var status = try? FileSystem.status(rule.root + "/" + path) else { continue }
                if status.isSymbolicLink {
                    guard let target = try? FileSystem.status(rule.root + "/" + path, followLinks: true),
                        target.isRegular
                    else { continue }
                    status = target
                }
                if status.isDirectory {
                    if !rule.skippedFolders.contains(name) { walk(path) }
                } else if rule.includes(name) {
                    files[path] = status.identity
                }
            }
        }
        walk("")
        return SourceTree(files: files)
    }

    /// The paths added, removed or changed from `old` to this tree, sorted.
    public func changes(since old: SourceTree) -> [String] {
        var changed: [String] = []
        for (path, identity) in files where old.files[path] != identity { changed.append(path) }
        for path in old.files.keys where files[path] == nil { changed.append(path) }
        return changed.sorted()
    }

    /// The latest modification time of any file, in nanoseconds since the epoch; 0 for none.
    public var newestModification: Int64 { files.values.map(\.modified).max() ?? 0 }
}
