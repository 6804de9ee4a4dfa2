import BridgeSystem

/// The files the Debian package (`scripts/package-deb.sh`) owns, so that
/// `install` neither rewrites nor adopts them and `uninstall` never removes
/// them. None of them is a conffile: dpkg would
/// silently put a changed one back at the next upgrade, and a per-user receipt
/// naming one would make `uninstall` remove the package's file.
///
/// A file is the package's when dpkg lists it
/// (`/var/lib/dpkg/info/extension-bridge.list`) or when it is a symbolic link
/// into `/usr/share/extension-bridge/` (the package's `/etc` manifests).
public struct PackagedFiles: Sendable {
    public static let packageName = "extension-bridge"
    /// Where the package keeps what its `/etc` links point at.
    public static let sharedFolder = "/usr/share/extension-bridge/"

    /// The system root the paths are under: "" for the real one; a staging
    /// folder (`--destdir`) or a test's fake root (`EXTENSION_BRIDGE_DETECT_ROOT`).
    public let root: String
    let listed: Set<String>

    public init(root: String) {
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        let list = self.root + "/var/lib/dpkg/info/" + PackagedFiles.packageName + ".list"
        let bytes = (try? FileSystem.readFile(list, limit: 16 << 20)) ?? []
        listed = Set(bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) })
    }

    /// Whether the package owns `path` (a path under `root`).
    public func owns(_ path: String) -> Bool {
        let inner: String
        if root.isEmpty {
            inner = path
        } else if path.hasPrefix(root + "/") {
            inner = String(path.dropFirst(root.count))
        } else {
            return false
        }
        if listed.contains(inner) { return true }
        guard let target = FileSystem.readLink(path) else { return false }
        let resolved =
            target.hasPrefix("/") ? target : PackagedFiles.normalized(FileSystem.parentPath(inner) + "/" + target)
        return resolved.hasPrefix(PackagedFiles.sharedFolder)
    }

    /// `a/./b/../c` → `a/c`, textually.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }
}
