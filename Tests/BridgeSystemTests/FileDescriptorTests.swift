import Foundation
import TestSupport
import Testing

@testable import BridgeSystem

@Suite struct FileDescriptorTests {
    @Test func pipe_writeAllThenRead_roundTrips_andEndOfInputIsZero() throws {
        let (r, w) = try FileDescriptor.pipe()
        defer { r.close() }
        try w.writeAll(Array("hello".utf8))
        w.close()
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = try buffer.withUnsafeMutableBytes { try r.read(into: $0) }
        #expect(Array(buffer[0..<n]) == Array("hello".utf8))
        #expect(try buffer.withUnsafeMutableBytes { try r.read(into: $0) } == 0)
    }

    @Test func writeToAClosedPipe_isBrokenPipe_notADeath() throws {
        Signals.ignore(.pipe)
        let (r, w) = try FileDescriptor.pipe()
        r.close()
        defer { w.close() }
        #expect(throws: SystemError.self) { try w.writeAll([1]) }
        do { try w.writeAll([1]) } catch { #expect(error.isBrokenPipe) }
    }

    @Test func writeWithTimeout_toAReaderThatStopped_timesOutOnTheInjectedClock() throws {
        let (r, w) = try FileDescriptor.pipe()
        defer { [r, w].forEach { $0.close() } }
        w.setNonBlocking(true)
        let clock = ManualClock()
        // Every look at the clock moves it 400 ms: the 1 s budget runs out after a few waits.
        let moving = MonotonicClock {
            clock.advance(milliseconds: 400)
            return clock.clock.nanoseconds()
        }
        let big = [UInt8](repeating: 7, count: 1 << 20)  // more than a pipe holds
        do {
            try w.writeAll(big, timeoutMilliseconds: 1000, clock: moving)
            Issue.record("the write should have timed out")
        } catch {
            #expect(error.isTimeout)
        }
    }

    @Test func hugeTimeout_doesNotTrap() throws {
        let (r, w) = try FileDescriptor.pipe()
        defer { [r, w].forEach { $0.close() } }
        w.setNonBlocking(true)
        try w.writeAll([1, 2, 3], timeoutMilliseconds: Int64.max)
    }

    @Test func waitForInput_timeoutReadyAndOrder() throws {
        let a = try FileDescriptor.pipe()
        let b = try FileDescriptor.pipe()
        defer { [a.read, a.write, b.read, b.write].forEach { $0.close() } }
        #expect(try FileDescriptor.waitForInput([a.read, b.read], timeoutMilliseconds: 5) == .timedOut)
        try b.write.writeAll([1])
        #expect(try FileDescriptor.waitForInput([a.read, b.read], timeoutMilliseconds: 5) == .ready(index: 1))
        try a.write.writeAll([1])
        #expect(try FileDescriptor.waitForInput([a.read, b.read], timeoutMilliseconds: nil) == .ready(index: 0))
    }

    @Test func duplicate_atLeastAndOnto() throws {
        let (r, w) = try FileDescriptor.pipe()
        defer { [r, w].forEach { $0.close() } }
        let copy = try w.duplicate(atLeast: 20)
        defer { copy.close() }
        #expect(copy.rawValue >= 20)
        try copy.writeAll([9])
        var one: [UInt8] = [0]
        #expect(try one.withUnsafeMutableBytes { try r.read(into: $0) } == 1 && one == [9])
        #expect(copy.status()?.isPipeOrSocket == true)
    }
}

@Suite struct FileSystemTests {
    @Test func status_kinds_andMissing() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/f", [1, 2], permissions: 0o640)
        #expect(symlink(tmp.path + "/f", tmp.path + "/l") == 0)
        #expect(mkfifo(tmp.path + "/p", 0o600) == 0)
        let file = try #require(try FileSystem.status(tmp.path + "/f"))
        #expect(file.isRegular && file.size == 2 && file.permissions == 0o640 && file.linkCount == 1)
        #expect(try FileSystem.status(tmp.path + "/l")?.isSymbolicLink == true)
        #expect(try FileSystem.status(tmp.path + "/l", followLinks: true)?.isRegular == true)
        #expect(try FileSystem.status(tmp.path + "/p")?.kind == .fifo)
        #expect(try FileSystem.status(tmp.path)?.isDirectory == true)
        #expect(try FileSystem.status(tmp.path + "/nothing") == nil)
    }

    /// A FIFO where a file belongs is refused at once, not waited on for ever.
    @Test func readFile_refusesAFIFOWithoutBlocking() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        #expect(mkfifo(tmp.path + "/suite.json", 0o600) == 0)
        #expect(throws: SystemError.self) { try FileSystem.readFile(tmp.path + "/suite.json") }
        #expect(throws: SystemError.self) { try FileSystem.openAndRead(tmp.path + "/suite.json") }
    }

    @Test func readFile_noFollow_refusesALink() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/f", [1])
        #expect(symlink(tmp.path + "/f", tmp.path + "/l") == 0)
        #expect(try FileSystem.readFile(tmp.path + "/l") == [1])
        #expect(throws: SystemError.self) { try FileSystem.readFile(tmp.path + "/l", noFollow: true) }
    }

    @Test func makeDirectory_refusesALinkedFolder() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        #expect(symlink("/tmp", tmp.path + "/l") == 0)
        do {
            try FileSystem.makeDirectory(tmp.path + "/l")
            Issue.record("a linked folder was accepted")
        } catch {
            #expect(error.code == Errno.tooManyLinks)
        }
        try FileSystem.makeDirectory(tmp.path + "/d")
        try FileSystem.makeDirectory(tmp.path + "/d")  // existing: fine
    }

    @Test func identity_changesWithAnAtomicReplace() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/f", [1])
        let first = try FileSystem.identity(tmp.path + "/f")
        try FileSystem.writeAtomically(tmp.path + "/f", [1])
        #expect(try FileSystem.identity(tmp.path + "/f") != first)
        #expect(ChangeToken(counter: 1) != ChangeToken(counter: 2))
    }
}

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

@Suite(.serialized) struct ClockAndSignalTests {
    @Test func systemClock_neverGoesBack() {
        var last = MonotonicClock.system.nanoseconds()
        for _ in 0..<1000 {
            let now = MonotonicClock.system.nanoseconds()
            #expect(now >= last)
            last = now
        }
    }

    /// SIGHUP (a closed terminal, a session logging out) asks for a clean
    /// stop like SIGTERM, instead of killing the process mid-write.
    @Test func hangUp_setsTheTerminationFlag() {
        Signals.requestTermination(on: [.hangUp])
        // Raised in this thread, so its handler has run (and no other thread reads the flag).
        Signals.raise(.hangUp)
        #expect(Signals.terminationRequested)
    }

    /// A prompt asks for the flag only while it reads, then puts back what
    /// was there: a signal the process was started ignoring stays ignored
    /// (put back as "default", this raise would end the test process).
    @Test func dispositions_restore_keepsAnInheritedIgnore() {
        Signals.ignore(.hangUp)
        Signals.requestTermination(on: [.hangUp]).restore()
        Signals.raise(.hangUp)
        Signals.requestTermination(on: [.hangUp])
    }

    @Test func randomBytes_haveTheLengthAsked() {
        #expect(Platform.randomBytes(0).isEmpty)
        #expect(Platform.randomBytes(13).count == 13)
        #expect(Platform.randomBytes(32) != Platform.randomBytes(32))
    }
}
