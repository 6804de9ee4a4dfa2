/// One browser profile folder found through the browser's own records.
public struct BrowserProfile: Equatable, Sendable {
    /// The name the browser shows or records (`Default`, `Profile 1`, `default-esr`).
    public var name: String
    /// The profile folder's absolute path.
    public var path: String

    public init(name: String, path: String) {
        self.name = name
        self.path = path
    }
}
