import BridgeProtocol
import BridgeSystem

/// The file-system questions detection asks, passed in so tests can answer them.
public struct FileProbe: Sendable {
    /// True when the path is a regular file the user may execute.
    public var isExecutableFile: @Sendable (String) -> Bool
    /// True when anything exists at the path.
    public var exists: @Sendable (String) -> Bool

    public init(isExecutableFile: @escaping @Sendable (String) -> Bool, exists: @escaping @Sendable (String) -> Bool) {
        self.isExecutableFile = isExecutableFile
        self.exists = exists
    }

    /// The real file system.
    public static let real = FileProbe(isExecutableFile: Platform.isExecutableFile, exists: Platform.exists)
}
