import Foundation
import TestSupport
import Testing

@testable import BridgeSystem

@Suite struct FileSystemTests {
    @Test func status_kinds_andMissing() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/f", [1, 2], permissions: 0o640)
        #expect(symlink(tmp.path + "/f", tmp.path + "/l") == 0)
        #expect(mkfifo(tmp.path + "/p", 0o600) == 0)
        let file = try #require(try FileSystem.status(tmp.path + "/f"))
        #expect(file.isRegular && file.size == 2 && file.permissions == 0o640 && file.linkCount == 1)
        #expect(try FileSystem.status(tmp.path + "/l")?.isSymbolicLink == true)
        #expect(try FileSystem.status(tmp.path + "/l", followLinks: true)?.isRegular == true)
        #expect(try FileSystem.status(tmp.path + "/p")?.kind == .fifo)
        #expect(try FileSystem.status(tmp.path)?.isDirectory == true)
        #expect(try FileSystem.status(tmp.path + "/nothing") == nil)
    }

    /// A FIFO where a file belongs is refused at once, not waited on for ever.
    @Test func readFile_refusesAFIFOWithoutBlocking() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        #expect(mkfifo(tmp.path + "/suite.json", 0o600) == 0)
        #expect(throws: SystemError.self) { try FileSystem.readFile(tmp.path + "/suite.json") }
        #expect(throws: SystemError.self) { try FileSystem.openAndRead(tmp.path + "/suite.json") }
    }

    @Test func readFile_noFollow_refusesALink() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/f", [1])
        #expect(symlink(tmp.path + "/f", tmp.path + "/l") == 0)
        #expect(try FileSystem.readFile(tmp.path + "/l") == [1])
        #expect(throws: SystemError.self) { try FileSystem.readFile(tmp.path + "/l", noFollow: true) }
    }

    @Test func makeDirectory_refusesALinkedFolder() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        #expect(symlink("/tmp", tmp.path + "/l") == 0)
        do {
            try FileSystem.makeDirectory(tmp.path + "/l")
            Issue.record("a linked folder was accepted")
        } catch {
            #expect(error.code == Errno.tooManyLinks)
        }
        try FileSystem.makeDirectory(tmp.path + "/d")
        try FileSystem.makeDirectory(tmp.path + "/d")  // existing: fine
    }

    @Test func identity_changesWithAnAtomicReplace() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/f", [1])
        let first = try FileSystem.identity(tmp.path + "/f")
        try FileSystem.writeAtomically(tmp.path + "/f", [1])
        #expect(try FileSystem.identity(tmp.path + "/f") != first)
        #expect(ChangeToken(counter: 1) != ChangeToken(counter: 2))
    }
}
