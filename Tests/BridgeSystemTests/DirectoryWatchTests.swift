import Foundation
import TestSupport
import Testing

@testable import BridgeSystem

@Suite struct DirectoryWatchTests {
    func events(_ watch: DirectoryWatch) throws -> [DirectoryWatch.Event] {
        let ready = try FileDescriptor.waitForInput([watch.descriptor], timeoutMilliseconds: 2000)
        #expect(ready == .ready(index: 0))
        return watch.readEvents()
    }

    @Test func reportsRenamesWritesDeletesByName_andTheFolderGoing() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let watch = try DirectoryWatch()
        let id = try watch.add(tmp.path)
        #expect(watch.readEvents().isEmpty, "nothing yet, and no blocking")
        try FileSystem.writeAtomically(tmp.path + "/suite.json", [1])
        var names = try events(watch).filter { $0.watch == id }.map(\.name)
        #expect(names.contains("suite.json"))
        try FileSystem.remove(tmp.path + "/suite.json")
        names = try events(watch).map(\.name)
        #expect(names == ["suite.json"])
        try FileManager.default.moveItem(atPath: tmp.path, toPath: tmp.path + "-moved")
        defer { try? FileManager.default.removeItem(atPath: tmp.path + "-moved") }
        #expect(try events(watch).contains { $0.folderGone })
    }

    @Test func addingAMissingFolder_fails() throws {
        let watch = try DirectoryWatch()
        #expect(throws: SystemError.self) { try watch.add("/nonexistent/folder") }
    }
}
