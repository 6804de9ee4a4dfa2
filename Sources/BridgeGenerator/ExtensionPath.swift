/// The parts of an extension-relative path (`options/options.html`).
enum ExtensionPath {
    /// The folder of `path` (`a/b.js` → `a`, `b.js` → ``).
    static func folder(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The last component of `path`.
    static func name(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
