import Foundation
import TestSupport
import Testing

@testable import BridgeSystem

@Suite struct FileLockTests {
    @Test func secondHolder_timesOut_untilTheFirstReleases() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try Directory.open(tmp.path)
        let first = try FileLock.acquire(".lock", in: folder, timeoutMilliseconds: 0)
        #expect(throws: FileLock.Failure.timedOut) {
            try FileLock.acquire(".lock", in: folder, timeoutMilliseconds: 20)
        }
        first.release()
        let second = try FileLock.acquire(".lock", in: folder, timeoutMilliseconds: 0)
        second.release()
    }

    @Test func aLinkOrAFIFOAsTheLockFile_isRefusedAtOnce() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try Directory.open(tmp.path)
        #expect(symlink(tmp.path + "/elsewhere", tmp.path + "/.lock") == 0)
        #expect(throws: FileLock.Failure.self) { try FileLock.acquire(".lock", in: folder, timeoutMilliseconds: 0) }
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/elsewhere"))
        #expect(mkfifo(tmp.path + "/.fifo", 0o600) == 0)
        #expect(throws: FileLock.Failure.self) { try FileLock.acquire(".fifo", in: folder, timeoutMilliseconds: 0) }
    }

    /// The folder is used through its descriptor: swapping its path for a
    /// link after it was opened does not move the lock file elsewhere.
    @Test func folderSwappedForALink_theLockStaysInTheFolderOpened() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path + "/queue", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: tmp.path + "/elsewhere", withIntermediateDirectories: false)
        let folder = try Directory.open(tmp.path + "/queue")
        #expect(rename(tmp.path + "/queue", tmp.path + "/queue-opened") == 0)
        #expect(symlink(tmp.path + "/elsewhere", tmp.path + "/queue") == 0)
        let lock = try FileLock.acquire(".handover.lock", in: folder, timeoutMilliseconds: 0)
        defer { lock.release() }
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/queue-opened/.handover.lock"))
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/elsewhere/.handover.lock"))
    }
}
