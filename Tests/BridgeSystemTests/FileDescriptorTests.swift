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
