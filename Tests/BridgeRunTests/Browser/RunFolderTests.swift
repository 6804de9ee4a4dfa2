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

    @Test func theParent_isTMPDIR_unlessItIsTooLongForTheSockets() {
        #expect(RunFolder.parent(temporaryDirectory: "/var/tmp/") == "/var/tmp")
        #expect(RunFolder.parent(temporaryDirectory: nil) == "/tmp")
        #expect(RunFolder.parent(temporaryDirectory: "relative") == "/tmp")
        let long = "/" + String(repeating: "d", count: 90)
        #expect(RunFolder.parent(temporaryDirectory: long) == "/tmp")
        let made = RunFolder(path: "/var/tmp/extension-bridge-run-XXXXXX")
        #expect(made.devToolsSocket.utf8.count <= LocalSocket.maximumPathBytes)
    }
}
