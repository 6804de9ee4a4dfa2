import Foundation
import TestSupport
import Testing

@testable import BridgeSystem

@Suite struct DirectoryTests {
    /// The container is opened once and used through its descriptor: a link put where a
    /// sub-folder belongs is refused as a link (`ELOOP`), never followed out of the container.
    @Test func subdirectory_createsOnce_andRefusesALinkAsALink() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try Directory.open(tmp.path)
        let queue = try folder.subdirectory("queue", create: true)
        #expect(queue.path == tmp.path + "/queue")
        #expect(try FileSystem.status(tmp.path + "/queue")?.permissions == 0o700)
        _ = try folder.subdirectory("queue", create: true)  // existing: fine
        #expect(symlink("/tmp", tmp.path + "/files") == 0)
        #expect(throws: SystemError("open", tmp.path + "/files", code: Errno.tooManyLinks)) {
            try folder.subdirectory("files")
        }
        #expect(throws: SystemError.self) { try folder.subdirectory("missing") }
    }

    @Test func open_refusesALinkUnlessAsked() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.makeDirectory(tmp.path + "/real")
        #expect(symlink(tmp.path + "/real", tmp.path + "/link") == 0)
        #expect(throws: SystemError.self) { try Directory.open(tmp.path + "/link") }
        _ = try Directory.open(tmp.path + "/link", noFollow: false)
    }

    /// A FIFO or a folder where a file belongs is refused at once by its type, never waited on;
    /// a link is refused as a link.
    @Test func readFile_refusesAFIFOAFolderAndALink_withoutBlocking() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try Directory.open(tmp.path)
        #expect(mkfifo(tmp.path + "/fifo", 0o600) == 0)
        try FileSystem.makeDirectory(tmp.path + "/dir")
        try folder.writeAtomically("f", [1, 2, 3])
        #expect(symlink(tmp.path + "/f", tmp.path + "/link") == 0)
        #expect(throws: SystemError("read (not a regular file)", tmp.path + "/fifo", code: Errno.invalidArgument)) {
            try folder.readFile("fifo")
        }
        #expect(throws: SystemError("read (not a regular file)", tmp.path + "/dir", code: Errno.isDirectory)) {
            try folder.readFile("dir")
        }
        #expect(throws: SystemError("open", tmp.path + "/link", code: Errno.tooManyLinks)) {
            try folder.readFile("link")
        }
        #expect(throws: SystemError.self) { try folder.openOrCreateRegularFile("fifo") }
        let (bytes, identity) = try folder.readFile("f", limit: 2)
        #expect(bytes == [1, 2])
        #expect(identity == (try FileSystem.identity(tmp.path + "/f")))
    }

    @Test func openAndRead_leavesTheVersionReadOpen() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try Directory.open(tmp.path)
        try folder.writeAtomically("suite.json", utf8: "one")
        let (bytes, identity, descriptor) = try folder.openAndRead("suite.json")
        defer { descriptor.close() }
        try folder.writeAtomically("suite.json", utf8: "two")
        #expect(bytes == Array("one".utf8))
        #expect(descriptor.status()?.identity.inode == identity.inode)
        #expect(descriptor.status()?.linkCount == 0, "the version read was renamed over")
    }

    /// `exclusive` never replaces: a queue item with the same name is kept, and no temporary
    /// file is left behind by the refused write.
    @Test func writeAtomically_exclusive_refusesAnExistingName_andLeavesNoTemporary() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try Directory.open(tmp.path)
        try folder.writeAtomically("item", [1], exclusive: true)
        #expect(throws: SystemError("link", tmp.path + "/item", code: Errno.exists)) {
            try folder.writeAtomically("item", [2], exclusive: true)
        }
        #expect(try folder.readFile("item").bytes == [1])
        try folder.writeAtomically("item", [3], permissions: 0o640)
        #expect(try folder.readFile("item").bytes == [3])
        #expect(try folder.status("item")?.permissions == 0o640)
        #expect(try folder.list() == ["item"])
    }

    /// A writer that died leaves a temporary file; the sweep removes it once it is stale and
    /// counts the bytes of a fresh one (a writer may be filling it now). Other files stay.
    @Test func sweep_removesStaleTemporaries_countsFreshOnes_keepsTheRest() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try Directory.open(tmp.path)
        try FileSystem.writeAtomically(tmp.path + "/.old.tmp-aa", [1, 2])
        try FileSystem.writeAtomically(tmp.path + "/.new.tmp-bb", [1, 2, 3])
        try FileSystem.writeAtomically(tmp.path + "/item", [1])
        let old = Date(timeIntervalSinceNow: -3_600)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: tmp.path + "/.old.tmp-aa")
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: tmp.path + "/item")
        #expect(folder.sweep(staleAfterSeconds: 60) == 3)
        #expect(Set(try folder.list()) == [".new.tmp-bb", "item"])
        #expect(Directory.isTemporary(".new.tmp-bb") && !Directory.isTemporary("item"))
    }

    @Test func moveAndRemove_stayInTheFolders() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try Directory.open(tmp.path)
        let sub = try folder.subdirectory("sub", create: true)
        try folder.writeAtomically("a", [1])
        try folder.move("a", to: "b", in: sub)
        #expect(try sub.readFile("b").bytes == [1])
        #expect(try folder.status("a") == nil)
        try sub.remove("b")
        try sub.remove("b")  // missing: fine
        #expect(try sub.list().isEmpty)
        #expect(throws: SystemError.self) { try folder.move("gone", to: "c") }
    }
}
