import BridgeSystem
import SharedSuite
import Testing

@testable import BridgeCLI

@Suite struct FilesVerbTests {
    @Test func filesWrite_fromStdinOrFile_withTheReadNameRules() throws {
        let h = Harness()
        h.input = Array("from stdin\n".utf8)
        #expect(h.run("files", "write", "notes.txt") == 0)
        #expect(try SharedFiles(container: h.container).read("notes.txt") == Array("from stdin\n".utf8))
        let source = h.tmp.path + "/source.bin"
        try FileSystem.writeAtomically(source, [0, 1, 2, 255])
        #expect(h.run("files", "write", "notes.txt", "--from", source) == 0)
        #expect(h.run("files", "read", "notes.txt") == 0 && h.out == [0, 1, 2, 255])
        for bad in ["../x", ".hidden", "a/b", ""] {
            #expect(h.run("files", "write", bad, "--from", source) == 64)
        }
        #expect(h.run("files", "write", "y", "--from", h.tmp.path + "/missing") == 66)
        #expect(h.run("files", "read", "y") == 66)  // nothing written for a source that is missing
        #expect(h.run("files", "list") == 0 && h.stdout == "notes.txt\t4\n")
    }

    @Test func files_listReadDelete_andBadNames() throws {
        let h = Harness()
        try SharedFiles(container: h.container).write("a.txt", Array("A".utf8))
        #expect(h.run("files", "list") == 0 && h.stdout == "a.txt\t1\n")
        #expect(h.run("files", "read", "a.txt") == 0 && h.stdout == "A")
        #expect(h.run("files", "read", "../etc/passwd") == 64)
        #expect(h.run("files", "delete", "a.txt") == 0)
        #expect(h.run("files", "read", "a.txt") == 66)
    }
}
