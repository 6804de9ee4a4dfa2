import Foundation

/// A fresh folder under the system temporary folder, removed on `remove()`.
struct TemporaryFolder {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "eb-test-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
