import BridgeSystem
import Testing

@testable import NativeMessaging

/// A pipe pair: the test writes to `write`, the channel reads `read`.
func makePipe() -> (read: Int32, write: Int32) {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    return (fds[0], fds[1])
}

@Suite struct StdioChannelTests {
    @Test func receive_framesThenEOF_endsCleanly() throws {
        let input = makePipe()
        let output = makePipe()
        defer { [input.read, output.read, output.write].forEach { close($0) } }
        let channel = StdioChannel(input: input.read, output: output.write, maximumLength: 100, chunkSize: 3)
        try FileIO.writeAll(input.write, frame("one") + frame("two"))
        close(input.write)
        #expect(try channel.receive() == .frame(Array("one".utf8)))
        #expect(try channel.receive() == .frame(Array("two".utf8)))
        #expect(try channel.receive() == .endOfInput)
    }

    @Test func receive_eofInsideFrame_throws() throws {
        let input = makePipe()
        let output = makePipe()
        defer { [input.read, output.read, output.write].forEach { close($0) } }
        let channel = StdioChannel(input: input.read, output: output.write, maximumLength: 100)
        try FileIO.writeAll(input.write, Array(frame("abcdef").prefix(7)))
        close(input.write)
        #expect(throws: FrameError.truncatedBody(expected: 6, received: 3)) { try channel.receive() }
    }

    @Test func receive_nothingWithinTimeout_timesOut() throws {
        let input = makePipe()
        let output = makePipe()
        defer { [input.read, input.write, output.read, output.write].forEach { close($0) } }
        let channel = StdioChannel(input: input.read, output: output.write, maximumLength: 100)
        #expect(try channel.receive(timeoutMilliseconds: 10) == .timedOut)
    }

    @Test func send_writesLengthAndBody() throws {
        let input = makePipe()
        let output = makePipe()
        defer { [input.read, input.write, output.read].forEach { close($0) } }
        let channel = StdioChannel(input: input.read, output: output.write, maximumLength: 100)
        try channel.send(Array("{}".utf8))
        close(output.write)
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = read(output.read, &buffer, 16)
        #expect(Array(buffer[0..<n]) == frame("{}"))
    }
}
