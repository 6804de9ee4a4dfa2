import BridgeSystem
import Glibc
import Testing

@testable import BridgeCLI

@Suite struct ExportVerbTests {
    @Test func exportToARegularFile_replacesIt() throws {
        let h = Harness()
        h.run("write", "n", "-int", "3")
        let file = h.tmp.path + "/suite-copy.json"
        try FileSystem.writeAtomically(file, Array("old".utf8), permissions: 0o644)
        #expect(h.run("export", file) == 0)
        #expect(String(decoding: try FileSystem.readFile(file), as: UTF8.self).contains("\"n\""))
    }

    @Test func exportToAPipeOrALink_isRefused_andLeavesItAsItWas() throws {
        let h = Harness()
        h.run("write", "n", "-int", "3")
        let pipe = h.tmp.path + "/pipe"
        #expect(mkfifo(pipe, 0o600) == 0)
        let target = h.tmp.path + "/target.txt"
        try FileSystem.writeAtomically(target, Array("kept".utf8), permissions: 0o644)
        let link = h.tmp.path + "/link"
        try FileSystem.makeSymbolicLink(link, pointingTo: target)

        #expect(h.run("export", pipe) == 73)
        #expect(h.err.joined().contains(pipe))
        #expect(h.err.joined().contains("export > "))
        #expect(try FileSystem.status(pipe)?.kind == .fifo)

        #expect(h.run("export", link) == 73)
        #expect(h.err.joined().contains("a symbolic link"))
        #expect(try FileSystem.status(link)?.kind == .symbolicLink)
        #expect(try FileSystem.readFile(target) == Array("kept".utf8))

        // A folder cannot be written through: the way out names a file in it, not `export > FOLDER`.
        #expect(h.run("export", h.tmp.path) == 73)
        #expect(h.err.joined().contains("name a file inside it"), "\(h.err)")
        #expect(!h.err.joined().contains("export > "), "\(h.err)")
    }
}
