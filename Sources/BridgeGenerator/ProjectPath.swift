/// The one rule for a path inside a generated project, which core.json and a Safari import check.
public enum ProjectPath {
    /// A relative path with no empty, `.` or `..` part, not absolute, no
    /// NUL or control character, at most 1024 bytes: inside the project.
    public static func isPlainRelative(_ path: String) -> Bool {
        guard !path.isEmpty, path.utf8.count <= 1024, !path.hasPrefix("/"),
            path.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x7F })
        else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
            !$0.isEmpty && $0 != "." && $0 != ".."
        }
    }
}
