/// One file of a generated project.
public struct GeneratedFile: Equatable, Sendable {
    /// Relative to the project folder.
    public var path: String
    public var bytes: [UInt8]
    /// Mode bits: 0o644, 0o755 for scripts, 0o600 for the private key.
    public var permissions: Int
    /// A symbolic link to this relative target instead of a file (`bytes` empty): a Manifest V2
    /// import's Chromium folder links the extension's files rather than copying them.
    public var linkTarget: String?

    public init(_ path: String, _ bytes: [UInt8], permissions: Int = 0o644) {
        self.path = path
        self.bytes = bytes
        self.permissions = permissions
    }

    /// A link at `path` to `target` (relative to the link's folder).
    public init(link path: String, to target: String) {
        self.init(path, [])
        linkTarget = target
    }

    public init(_ path: String, text: String, permissions: Int = 0o644) {
        self.init(path, Array(text.utf8), permissions: permissions)
    }
}
