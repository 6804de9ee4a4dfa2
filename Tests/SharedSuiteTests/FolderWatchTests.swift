import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import SharedSuite

/// The inotify core both watchers use, on real folders.
@Suite struct FolderWatchTests {
    /// The outcome after waiting (at most 1 s) for events.
    func next(_ watch: FolderWatch, relevant: @escaping (String) -> Bool = { _ in true }) throws -> FolderWatch.Outcome
    {
        _ = try FileDescriptor.waitForInput([watch.descriptor], timeoutMilliseconds: 1000)
        return watch.takeEvents(isRelevant: relevant)
    }

    @Test func missingFolder_onlyTheWayDownWakesIt_thenItsOwnNames() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = tmp.path + "/c/queue"
        try FileManager.default.createDirectory(atPath: tmp.path + "/c", withIntermediateDirectories: false)
        let watch = try #require(FolderWatch(folder: folder))
        // Watching c/ (the queue is missing): other names in c/ are not news.
        try FileSystem.writeAtomically(tmp.path + "/c/suite.json", Array("{}".utf8))
        #expect(try next(watch) == .nothing)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(try next(watch) == .changed)
        // Now down at queue/: names there count when relevant.
        try FileSystem.writeAtomically(folder + "/.lock", [1])
        #expect(try next(watch, relevant: { !$0.hasPrefix(".") }) == .nothing)
        try FileSystem.writeAtomically(folder + "/item.json", [1])
        #expect(try next(watch, relevant: { !$0.hasPrefix(".") }) == .changed)
    }

    @Test func folderRemovedAndMadeAgain_isFollowed() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = tmp.path + "/g"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let watch = try #require(FolderWatch(folder: folder))
        try FileManager.default.removeItem(atPath: folder)
        #expect(try next(watch) == .changed)
        while watch.takeEvents(isRelevant: { _ in true }) != .nothing {}
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(try next(watch) == .changed)
        while watch.takeEvents(isRelevant: { _ in true }) != .nothing {}
        try FileSystem.writeAtomically(folder + "/suite.json", [1])
        #expect(try next(watch, relevant: { $0 == "suite.json" }) == .changed)
    }
}
