import Foundation
import TestSupport
import Testing

@testable import BridgeSystem

@Suite struct FileStatusTests {
    @Test func kinds_sizeModeAndLinks() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/f", [1, 2], permissions: 0o640)
        #expect(symlink(tmp.path + "/f", tmp.path + "/l") == 0)
        #expect(mkfifo(tmp.path + "/p", 0o600) == 0)
        let file = try #require(try FileSystem.status(tmp.path + "/f"))
        #expect(file.isRegular && file.size == 2 && file.permissions == 0o640 && file.linkCount == 1)
        #expect(file.owner == getuid())
        #expect(try FileSystem.status(tmp.path + "/l")?.isSymbolicLink == true)
        #expect(try FileSystem.status(tmp.path + "/l", followLinks: true)?.isRegular == true)
        let fifo = try #require(try FileSystem.status(tmp.path + "/p"))
        #expect(fifo.kind == .fifo && fifo.isPipeOrSocket && !fifo.isRegular)
        #expect(try FileSystem.status(tmp.path)?.isDirectory == true)
        #expect(try FileSystem.status("/dev/null")?.kind == .characterDevice)
        #expect(link(tmp.path + "/f", tmp.path + "/second-name") == 0)
        #expect(try FileSystem.status(tmp.path + "/f")?.linkCount == 2)
    }
}
