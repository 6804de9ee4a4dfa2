import Foundation
import TestSupport
import Testing

@testable import BridgeSystem

@Suite struct FileSystemTests {
    @Test func status_ofNothing_isNil_evenUnderAFile() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/f", [1])
        #expect(try FileSystem.status(tmp.path + "/nothing") == nil)
        #expect(try FileSystem.status(tmp.path + "/f/below") == nil)
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
        #expect(try FileSystem.identity(tmp.path + "/missing") == nil)
    }

    /// Found by `swift test --sanitize=address`: `listDirectory` copied each whole `dirent` (`entry.pointee`) to read
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

    /// The parents are made as needed; a file where a folder belongs is refused by name.
    @Test func makeDirectories_makesTheParents_andRefusesAFileOnTheWay() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.makeDirectories(tmp.path + "/a/b/c", permissions: 0o750)
        #expect(try FileSystem.status(tmp.path + "/a/b/c")?.permissions == 0o750)
        try FileSystem.makeDirectories(tmp.path + "/a/b/c")  // existing: fine
        try FileSystem.writeAtomically(tmp.path + "/file", [1])
        #expect(throws: SystemError("mkdir", tmp.path + "/file", code: Errno.notDirectory)) {
            try FileSystem.makeDirectories(tmp.path + "/file/d")
        }
    }

    /// `exclusive` never overwrites (a queue item keeps its first bytes), and a refused write
    /// leaves no temporary file beside it.
    @Test func writeAtomically_exclusive_keepsTheFirst_andLeavesNoTemporary() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/item", utf8: "first", exclusive: true)
        #expect(throws: SystemError("link", tmp.path + "/item", code: Errno.exists)) {
            try FileSystem.writeAtomically(tmp.path + "/item", utf8: "second", exclusive: true)
        }
        #expect(try FileSystem.readFile(tmp.path + "/item") == Array("first".utf8))
        #expect(try FileSystem.listDirectory(tmp.path) == ["item"])
        #expect(try FileSystem.readFile(tmp.path + "/item", limit: 3) == Array("fir".utf8))
    }

    /// A link inside the tree is removed as a link: what it points at is left alone.
    @Test func removeTree_removesLinksNotTheirTargets() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.makeDirectories(tmp.path + "/keep")
        try FileSystem.writeAtomically(tmp.path + "/keep/precious", [1])
        try FileSystem.makeDirectories(tmp.path + "/tree/sub")
        try FileSystem.writeAtomically(tmp.path + "/tree/sub/f", [1])
        try FileSystem.makeSymbolicLink(tmp.path + "/tree/link", pointingTo: "../keep")
        #expect(FileSystem.readLink(tmp.path + "/tree/link") == "../keep")
        try FileSystem.removeTree(tmp.path + "/tree")
        try FileSystem.removeTree(tmp.path + "/tree")  // missing: fine
        #expect(try FileSystem.status(tmp.path + "/tree") == nil)
        #expect(try FileSystem.readFile(tmp.path + "/keep/precious") == [1])
        #expect(FileSystem.readLink(tmp.path + "/keep") == nil)
    }

    @Test func pathsAndHex() {
        #expect(FileSystem.parentPath("/a/b/c.json") == "/a/b")
        #expect(FileSystem.parentPath("/a") == "/")
        #expect(FileSystem.parentPath("name") == ".")
        #expect(FileSystem.lastComponent("/a/b/c.json") == "c.json")
        #expect(FileSystem.lastComponent("name") == "name")
        #expect(FileSystem.hex([0x00, 0x0f, 0xa5, 0xff]) == "000fa5ff")
    }

    @Test func resolvedPath_followsLinksAndDots() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.makeDirectories(tmp.path + "/real")
        try FileSystem.makeSymbolicLink(tmp.path + "/link", pointingTo: "real")
        let real = try #require(FileSystem.resolvedPath(tmp.path + "/real"))
        #expect(FileSystem.resolvedPath(tmp.path + "/link/../link/.") == real)
        #expect(FileSystem.resolvedPath(tmp.path + "/missing") == nil)
    }
}
