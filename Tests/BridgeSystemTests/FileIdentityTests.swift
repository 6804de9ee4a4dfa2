import Foundation
import TestSupport
import Testing

@testable import BridgeSystem

@Suite struct FileIdentityTests {
    /// A cache keyed by the identity must see every change a writer can make without renaming:
    /// new bytes of the same length (a new modification time), and a change of mode (a new
    /// change time). An untouched file keeps its identity.
    @Test func identity_followsModificationAndChangeTimes_notJustSize() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = tmp.path + "/f"
        try FileSystem.writeAtomically(path, [1, 2, 3])
        let first = try #require(try FileSystem.identity(path))
        #expect(try FileSystem.identity(path) == first)
        #expect(first.size == 3)

        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_000)], ofItemAtPath: path)
        let touched = try #require(try FileSystem.identity(path))
        #expect(touched != first)
        #expect(touched.inode == first.inode && touched.size == first.size)
        #expect(touched.modified == 1_000 * 1_000_000_000)

        Thread.sleep(forTimeInterval: 0.01)
        #expect(chmod(path, 0o640) == 0)
        let changed = try #require(try FileSystem.identity(path))
        #expect(changed.modified == touched.modified)
        #expect(changed.changed != touched.changed)
    }
}
