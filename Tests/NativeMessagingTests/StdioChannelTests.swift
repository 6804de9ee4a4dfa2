import BridgeSystem
import Testing

@testable import NativeMessaging

/// A pipe pair: the test writes to `write`, the channel reads `read`.
func makePipe() throws -> (read: FileDescriptor, write: FileDescriptor) { try FileDescriptor.pipe() }

@Suite struct StdioChannelTests {
    @Test func receive_framesThenEOF_endsCleanly() throws {
        let input = try makePipe()
        let output = try makePipe()
        defer { [input.read, output.read, output.write].forEach { $0.close() } }
        let channel = StdioChannel(input: input.read, output: output.write, maximumLength: 100, chunkSize: 3)
        try input.write.writeAll(frame("one") + frame("two"))
        input.write.close()
        #expect(try channel.receive() == .frame(Array("one".utf8)))
        #expect(try channel.receive() == .frame(Array("two".utf8)))
        #expect(try channel.receive() == .endOfInput)
    }

    @Test func receive_eofInsideFrame_throws() throws {
        let input = try makePipe()
        let output = try makePipe()
        defer { [input.read, output.read, output.write].forEach { $0.close() } }
        let channel = StdioChannel(input: input.read, output: output.write, maximumLength: 100)
        try input.write.writeAll(Array(frame("abcdef").prefix(7)))
        input.write.close()
        #expect(throws: FrameError.truncatedBody(expected: 6, received: 3)) { try channel.receive() }
    }

    @Test func receive_nothingWithinTimeout_timesOut() throws {
        let input = try makePipe()
        let output = try makePipe()
        defer { [input.read, input.write, output.read, output.write].forEach { $0.close() } }
        let channel = StdioChannel(input: input.read, output: output.write, maximumLength: 100)
        #expect(try channel.receive(timeoutMilliseconds: 10) == .timedOut)
    }

    @Test func receive_wakeDescriptorReadable_wakesBeforeInput() throws {
        let input = try makePipe()
        let output = try makePipe()
        let wake = try makePipe()
        defer { [input.read, input.write, output.read, output.write, wake.read, wake.write].forEach { $0.close() } }
        let channel = StdioChannel(input: input.read, output: output.write, maximumLength: 100)
        #expect(try channel.receive(timeoutMilliseconds: 10, wakeOn: wake.read) == .timedOut)
        try wake.write.writeAll([1])
        try input.write.writeAll(frame("x"))
        // A change waiting is reported even while input waits too: a busy port still gets pushes.
        #expect(try channel.receive(timeoutMilliseconds: nil, wakeOn: wake.read) == .woken)
    }

    @Test func send_writesLengthAndBody() throws {
        let input = try makePipe()
        let output = try makePipe()
        defer { [input.read, input.write, output.read].forEach { $0.close() } }
        let channel = StdioChannel(input: input.read, output: output.write, maximumLength: 100)
        try channel.send(Array("{}".utf8))
        output.write.close()
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = try buffer.withUnsafeMutableBytes { try output.read.read(into: $0) }
        #expect(Array(buffer[0..<n]) == frame("{}"))
    }

    /// A frame over the limit is reported by its length and skipped without being kept; the
    /// next frame still arrives.
    @Test func receive_oversizedFrame_isReported_thenTheNextArrives() throws {
        let input = try makePipe()
        let output = try makePipe()
        defer { [input.read, output.read, output.write].forEach { $0.close() } }
        let channel = StdioChannel(input: input.read, output: output.write, maximumLength: 4, chunkSize: 2)
        try input.write.writeAll(frame("too long") + frame("ok"))
        input.write.close()
        #expect(try channel.receive() == .oversized(length: 8))
        #expect(try channel.receive() == .frame(Array("ok".utf8)))
        #expect(try channel.receive() == .endOfInput)
    }

    /// A browser that stops reading cannot hang the host: with a write timeout, a reply that does
    /// not fit in the pipe fails once the time (on the injected clock) is up.
    @Test func send_toAReaderThatStopped_failsAfterTheWriteTimeout() throws {
        let input = try makePipe()
        let output = try makePipe()
        defer { [input.read, input.write, output.read, output.write].forEach { $0.close() } }
        let ticks = ManualTicks()
        let clock = MonotonicClock { ticks.next() }
        let channel = StdioChannel(
            input: input.read, output: output.write, maximumLength: 100, writeTimeoutMilliseconds: 1_000, clock: clock)
        do {
            try channel.send([UInt8](repeating: 0x20, count: 1 << 20))
            Issue.record("the send should have timed out")
        } catch {
            if case .io(let failure) = error { #expect(failure.isTimeout) } else { Issue.record("\(error)") }
        }
    }
}

/// A clock that moves 400 ms each time it is read (one test's thread reads it).
final class ManualTicks: @unchecked Sendable {
    private var now: Int64 = 0
    func next() -> Int64 {
        now += 400_000_000
        return now
    }
}
