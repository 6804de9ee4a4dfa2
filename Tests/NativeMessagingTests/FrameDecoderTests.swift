import Testing

@testable import NativeMessaging

/// A frame with a native-order length, as browsers write it.
func frame(_ body: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    withUnsafeBytes(of: UInt32(body.count)) { out.append(contentsOf: $0) }
    return out + body
}

func frame(_ text: String) -> [UInt8] { frame(Array(text.utf8)) }

func drain(_ decoder: inout FrameDecoder) -> [FrameDecoder.Event] {
    var events: [FrameDecoder.Event] = []
    while let e = decoder.nextEvent() { events.append(e) }
    return events
}

@Suite struct FrameDecoderTests {
    @Test func decode_wholeFrame_yieldsBody() throws {
        var d = FrameDecoder(maximumLength: 1024)
        d.feed(frame("{\"a\":1}"))
        #expect(drain(&d) == [.frame(Array("{\"a\":1}".utf8))])
        #expect(d.isAtFrameBoundary)
        try d.finish()
    }

    @Test func decode_splitHeader_waitsForMoreBytes() throws {
        var d = FrameDecoder(maximumLength: 1024)
        let bytes = frame("hello")
        d.feed(Array(bytes[0..<2]))
        #expect(drain(&d).isEmpty)
        #expect(!d.isAtFrameBoundary)
        d.feed(Array(bytes[2...]))
        #expect(drain(&d) == [.frame(Array("hello".utf8))])
    }

    @Test func decode_splitBody_waitsForMoreBytes() {
        var d = FrameDecoder(maximumLength: 1024)
        let bytes = frame("hello world")
        d.feed(Array(bytes[0..<7]))
        #expect(drain(&d).isEmpty)
        d.feed(Array(bytes[7...]))
        #expect(drain(&d) == [.frame(Array("hello world".utf8))])
    }

    @Test func decode_oneByteAtATime_yieldsEveryFrame() {
        var d = FrameDecoder(maximumLength: 1024)
        let bytes = frame("a") + frame("") + frame("ccc")
        var events: [FrameDecoder.Event] = []
        for b in bytes {
            d.feed([b])
            events += drain(&d)
        }
        #expect(events == [.frame([97]), .frame([]), .frame([99, 99, 99])])
    }

    @Test func decode_manyFramesInOneRead_yieldsAllInOrder() {
        var d = FrameDecoder(maximumLength: 1024)
        var bytes: [UInt8] = []
        for i in 0..<100 { bytes += frame("{\"i\":\(i)}") }
        d.feed(bytes)
        let events = drain(&d)
        #expect(events.count == 100)
        #expect(events.last == .frame(Array("{\"i\":99}".utf8)))
    }

    @Test func decode_zeroLengthFrame_yieldsEmptyBody() {
        var d = FrameDecoder(maximumLength: 1024)
        d.feed([0, 0, 0, 0])
        #expect(drain(&d) == [.frame([])])
        #expect(d.isAtFrameBoundary)
    }

    @Test func decode_maliciousLength_isDiscardedNotAllocated() throws {
        var d = FrameDecoder(maximumLength: 1024)
        d.feed([0xFF, 0xFF, 0xFF, 0xFF])
        #expect(drain(&d).isEmpty)
        // Input ends long before 4 GiB: an error, not a hang or an allocation.
        #expect(throws: FrameError.truncatedBody(expected: 0xFFFF_FFFF, received: 0)) { try d.finish() }
    }

    @Test func decode_oversizedFrame_isSkippedAndNextFrameDecodes() {
        var d = FrameDecoder(maximumLength: 4)
        d.feed(frame("too long") + frame("ok"))
        #expect(drain(&d) == [.oversized(length: 8), .frame(Array("ok".utf8))])
    }

    @Test func decode_oversizedFrameInPieces_reportsOnceAtItsEnd() {
        var d = FrameDecoder(maximumLength: 2)
        let bytes = frame([UInt8](repeating: 7, count: 10))
        d.feed(Array(bytes[0..<6]))
        #expect(drain(&d).isEmpty)
        d.feed(Array(bytes[6...]))
        #expect(drain(&d) == [.oversized(length: 10)])
    }

    @Test func decode_lengthAtLimit_isAccepted() {
        var d = FrameDecoder(maximumLength: 3)
        d.feed(frame("abc"))
        #expect(drain(&d) == [.frame(Array("abc".utf8))])
    }

    @Test func finish_eofMidHeader_throws() {
        var d = FrameDecoder(maximumLength: 1024)
        d.feed([5, 0])
        #expect(throws: FrameError.truncatedHeader(received: 2)) { try d.finish() }
    }

    @Test func finish_eofMidBody_throws() {
        var d = FrameDecoder(maximumLength: 1024)
        d.feed(Array(frame("hello").prefix(6)))
        #expect(throws: FrameError.truncatedBody(expected: 5, received: 2)) { try d.finish() }
    }
}
