import Foundation

/// The repository a test runs in, for tests that read its files (docs/, the extension's shared
/// fixtures): found from this file's own place, so a test file may sit in any folder of its target.
public enum Repository {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The path of `relative` (`docs/PROTOCOL.md`) in the repository.
    public static func path(_ relative: String) -> String { root + "/" + relative }
}
