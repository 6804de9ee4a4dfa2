import BridgeSystem
import TestSupport
import Testing

@testable import BridgeRun

@Suite struct RunFolderTests {
    @Test func aNewFolder_isPrivate_hasItsParts_andIsRemovedWhole() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try RunFolder.create(in: tmp.path)
        let second = try RunFolder.create(in: tmp.path)
        #expect(folder.path != second.path)
        #expect(try FileSystem.status(folder.path)?.permissions == 0o700)
        for part in [folder.home, folder.profile, folder.hostFolder, folder.temporary] {
            #expect(try FileSystem.status(part)?.isDirectory == true)
        }
        try FileSystem.makeDirectories(folder.profile + "/deep")
        try FileSystem.writeAtomically(folder.profile + "/deep/file", utf8: "x")
        #expect(folder.remove())
        #expect(!Platform.exists(folder.path))
        #expect(Platform.exists(second.path))
    }

    @Test func theParent_isTMPDIR_unlessItIsTooLongForTheSockets() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        #expect(try RunFolder.parent(temporaryDirectory: tmp.path + "/") == tmp.path)
        #expect(try RunFolder.parent(temporaryDirectory: nil) == "/tmp")
        #expect(try RunFolder.parent(temporaryDirectory: "") == "/tmp")
        let long = tmp.path + "/" + String(repeating: "d", count: 90)
        try FileSystem.makeDirectories(long)
        #expect(try RunFolder.parent(temporaryDirectory: long) == "/tmp")
        let made = RunFolder(path: "/var/tmp/extension-bridge-run-XXXXXX")
        #expect(made.devToolsSocket.utf8.count <= LocalSocket.maximumPathBytes)
    }

    /// SwiftPM fails on such a TMPDIR with no word of it (and run's error said "fix the error
    /// above" with nothing above): run names the variable and what is wrong with it.
    @Test func aTMPDIRThatIsNotAnAbsolutePathToAFolder_isRefusedByName() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/file", utf8: "x")
        let cases = [
            ("relative", "is not an absolute path"), (tmp.path + "/missing", "does not exist"),
            (tmp.path + "/file", "is not a folder"),
        ]
        for (value, problem) in cases {
            #expect(throws: RunError.temporaryDirectory(value, problem: problem)) {
                try RunFolder.parent(temporaryDirectory: value)
            }
        }
        let error = RunError.temporaryDirectory("relative", problem: "is not an absolute path")
        #expect(error.exitStatus == 73)
        #expect(error.description.hasPrefix("TMPDIR is 'relative', which is not an absolute path;"))
        #expect(error.description.hasSuffix("or unset it to use /tmp"))
    }
}
