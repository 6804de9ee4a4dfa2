import BridgeSystem
import TestSupport
import Testing

@testable import BridgeRun

@Suite struct SourceTreeTests {
    func rule(_ root: String) -> SourceTree.Rule {
        SourceTree.Rule(root: root, includes: { $0.hasSuffix(".swift") }, skippedFolders: ["Tests", ".build"])
    }

    @Test func aScan_countsTheIncludedFiles_outsideSkippedAndHiddenFolders() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        for folder in ["Sources/App", "Tests/AppTests", ".build/x", "Sources/.hidden"] {
            try FileSystem.makeDirectories(tmp.path + "/" + folder)
        }
        for file in [
            "Sources/App/a.swift", "Sources/App/notes.txt", "Tests/AppTests/t.swift", ".build/x/b.swift",
            "Sources/.hidden/c.swift", "Package.swift",
        ] {
            try FileSystem.writeAtomically(tmp.path + "/" + file, utf8: "x")
        }
        #expect(SourceTree.scan(rule(tmp.path)).files.keys.sorted() == ["Package.swift", "Sources/App/a.swift"])
    }

    @Test func changes_areTheFilesAddedRemovedOrRewritten() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/a.swift", utf8: "1")
        try FileSystem.writeAtomically(tmp.path + "/b.swift", utf8: "1")
        let before = SourceTree.scan(rule(tmp.path))
        #expect(SourceTree.scan(rule(tmp.path)).changes(since: before) == [])
        try FileSystem.writeAtomically(tmp.path + "/a.swift", utf8: "2")
        try FileSystem.remove(tmp.path + "/b.swift")
        try FileSystem.writeAtomically(tmp.path + "/c.swift", utf8: "1")
        let after = SourceTree.scan(rule(tmp.path))
        #expect(after.changes(since: before) == ["a.swift", "b.swift", "c.swift"])
        #expect(after.newestModification >= before.newestModification)
    }

    @Test func aLinkedFolder_isNotEntered_butALinkedFileCounts() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.makeDirectories(tmp.path + "/root")
        try FileSystem.writeAtomically(tmp.path + "/real.swift", utf8: "x")
        try FileSystem.makeSymbolicLink(tmp.path + "/root/loop", pointingTo: tmp.path + "/root")
        try FileSystem.makeSymbolicLink(tmp.path + "/root/linked.swift", pointingTo: tmp.path + "/real.swift")
        #expect(SourceTree.scan(rule(tmp.path + "/root")).files.keys.sorted() == ["linked.swift"])
    }
}
