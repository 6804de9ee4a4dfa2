import Foundation

/// A fresh folder under the system temporary folder, removed on `remove()`.
public struct TemporaryFolder: Sendable {
    public let path: String

    public init() {
        path = NSTemporaryDirectory() + "eb-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
