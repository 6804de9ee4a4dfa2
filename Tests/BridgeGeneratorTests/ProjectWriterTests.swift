import BridgeJSON
import BridgeSystem
import BrowserSupport
import Foundation
import TestSupport
import Testing

@testable import BridgeGenerator

@Suite struct ProjectWriterTests {
    @Test func writesInOneRename_refusesAnExistingFolder_andForceKeepsTheOld() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let target = tmp.path + "/App"
        let files = [GeneratedFile("a.txt", text: "A"), GeneratedFile("dir/b.sh", text: "B", permissions: 0o755)]
        try ProjectWriter.write(files, to: target, force: false)
        #expect(try FileSystem.readFile(target + "/dir/b.sh") == Array("B".utf8))
        #expect(try FileSystem.status(target + "/dir/b.sh")?.permissions == 0o755)
        #expect(throws: GeneratorError.folderExists(target)) {
            try ProjectWriter.write(files, to: target, force: false)
        }
        try FileSystem.writeAtomically(target + "/mine.txt", Array("keep".utf8))
        let aside = try #require(try ProjectWriter.write(files, to: target, force: true))
        #expect(try FileSystem.readFile(aside + "/mine.txt") == Array("keep".utf8), "the old folder is kept")
        #expect(try FileSystem.status(target + "/mine.txt") == nil)
    }

    @Test func aFailureLeavesNothingHalfWritten() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let target = tmp.path + "/App"
        // "x" is a file, so "x/y" cannot be written: the write fails midway.
        let files = [GeneratedFile("x", text: "file"), GeneratedFile("x/y", text: "no")]
        #expect(throws: GeneratorError.self) { try ProjectWriter.write(files, to: target, force: false) }
        #expect(try FileSystem.status(target) == nil)
        #expect(try FileSystem.listDirectory(tmp.path).isEmpty, "no temporary folder is left")
    }
}
