import BridgeSystem
import Foundation
import TestSupport
import Testing

/// Regressions found by `swift test --sanitize=address` (issue 7).
@Suite struct ListDirectoryRegressionTests {
    /// `FileSystem.listDirectory` copied each whole `dirent` (`entry.pointee`) to read
    /// its name, but readdir's records are only `d_reclen` bytes long: for a record
    /// near the end of readdir's buffer the copy read past the end of the heap block
    /// (AddressSanitizer: heap-buffer-overflow in listDirectory, seen with a queue
    /// folder of ~1,600 items in `concurrentHosts_appendEveryItemOnce`). Enough
    /// names of every length put records at every offset of the buffer; under
    /// ASan this test traps without the fix, and it checks the names in any build.
    @Test func manyEntriesOfEveryNameLength_listedExactly_withoutReadingPastTheBuffer() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        var expected = Set<String>()
        for i in 0..<2_000 {
            let stem = "f\(i)-"
            let name = stem + String(repeating: "x", count: (i * 7) % (250 - stem.count))
            let fd = open(tmp.path + "/" + name, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            try #require(fd >= 0)
            close(fd)
            expected.insert(name)
        }
        let names = try FileSystem.listDirectory(tmp.path)
        #expect(names.count == expected.count)
        #expect(Set(names) == expected)
    }
}
