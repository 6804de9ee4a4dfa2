import BridgeSystem
import TestSupport
import Testing

@Suite struct PlatformPrivateFolderTests {
    @Test func aPrivateFolder_isNewEachTime_andOnlyItsOwnerMayEnterIt() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let first = try Platform.makePrivateFolder(in: tmp.path, prefix: "run-")
        let second = try Platform.makePrivateFolder(in: tmp.path, prefix: "run-")
        #expect(first != second)
        #expect(first.hasPrefix(tmp.path + "/run-") && first.count == tmp.path.count + 11)
        #expect(try FileSystem.status(first)?.permissions == 0o700)
        #expect(throws: SystemError.self) { try Platform.makePrivateFolder(in: tmp.path + "/missing", prefix: "x") }
    }

    @Test func theExecutableOfAProcess_isWhatItRuns() {
        #expect(Platform.executablePath(ofProcess: Platform.processID) == Platform.executablePath())
        #expect(Platform.executablePath(ofProcess: Int32.max) == nil)
    }
}
