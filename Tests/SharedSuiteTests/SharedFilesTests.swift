import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import SharedSuite

@Suite struct SharedFilesTests {
    @Test func writeReadListDelete_roundTrip() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let files = SharedFiles(container: GroupContainer(path: tmp.path))
        try files.write("notes.txt", Array("hello".utf8))
        try files.write("notes.txt", Array("hello again".utf8))
        #expect(try files.read("notes.txt") == Array("hello again".utf8))
        #expect(try files.list() == [SharedFiles.Entry(name: "notes.txt", size: 11)])
        #expect(mode(tmp.path + "/files/notes.txt") == 0o600)
        try files.delete("notes.txt")
        #expect(throws: SuiteError.notFound("shared file 'notes.txt'")) { try files.read("notes.txt") }
        #expect(throws: SuiteError.notFound("shared file 'notes.txt'")) { try files.delete("notes.txt") }
    }

    @Test(arguments: [
        "", ".", "..", ".hidden", "a/b", "../escape", "nul\u{0}x", "tab\tx", "c1\u{9b}x", "rtl\u{202e}x",
        "isolate\u{2066}x", "del\u{7f}x", String(repeating: "x", count: 256),
    ])
    func badNames_areRefused(name: String) {
        #expect {
            try SharedFiles.validate(name: name)
        } throws: { error in
            if case .invalidName = error as? SuiteError { return true }
            return false
        }
    }

    @Test func symlinkInContainer_isNotFollowed() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let files = SharedFiles(container: GroupContainer(path: tmp.path + "/c"))
        try files.write("real", [1])
        try writeRaw(tmp.path + "/secret", "secret")
        symlink(tmp.path + "/secret", tmp.path + "/c/files/link")
        #expect(throws: SuiteError.self) { try files.read("link") }
    }

    @Test func filesFolderThatIsASymlink_isRefused() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path + "/c")
        try container.create()
        mkdir(tmp.path + "/elsewhere", 0o700)
        try writeRaw(tmp.path + "/elsewhere/x", "outside")
        symlink(tmp.path + "/elsewhere", container.filesPath)
        let files = SharedFiles(container: container)
        #expect(throws: SuiteError.self) { try files.read("x") }
        #expect(throws: SuiteError.self) { try files.write("y", [1]) }
        #expect(throws: SuiteError.self) { try files.list() }
    }
}
