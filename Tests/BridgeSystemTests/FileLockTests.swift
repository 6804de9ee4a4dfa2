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

    /// One byte of a file is one claim: two descriptors of this one process exclude each other
    /// on the same byte (an open-file-description lock), other bytes and a `flock` of the file
    /// are independent, and releasing frees the byte.
    @Test func acquireByte_excludesTheSameByteOnly() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try Directory.open(tmp.path)
        let first = try FileLock.acquireByte(7, of: ".claims", in: folder, timeoutMilliseconds: 0)
        #expect(throws: FileLock.Failure.timedOut) {
            try FileLock.acquireByte(7, of: ".claims", in: folder, timeoutMilliseconds: 10)
        }
        let other = try FileLock.acquireByte(8, of: ".claims", in: folder, timeoutMilliseconds: 0)
        let whole = try FileLock.acquire(".claims", in: folder, timeoutMilliseconds: 0)
        first.release()
        let again = try FileLock.acquireByte(7, of: ".claims", in: folder, timeoutMilliseconds: 0)
        [other, whole, again].forEach { $0.release() }
        #expect(first.path == tmp.path + "/.claims")
    }
}
