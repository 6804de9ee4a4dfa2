import Testing

@testable import NativeMessaging

@Suite struct FrameEncoderTests {
    @Test func encode_lengthCountsUTF8BytesInNativeOrder() throws {
        let body = Array("é😀".utf8)
        let encoded = try FrameEncoder.encode(body)
        let length = encoded.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        #expect(length == 6)
        #expect(Array(encoded[4...]) == body)
    }

    /// The host writes a reply's pieces after a header it fills in last: the header is the
    /// body's length, and the decoder reads the frame back.
    @Test func writeHeader_overTheRoomLeft_framesTheBody() throws {
        var out: [UInt8] = [0xEE, 0xEE, 0xEE, 0xEE] + Array("{}".utf8)
        try FrameEncoder.writeHeader(length: 2, into: &out)
        #expect(out == frame("{}"))
        var decoder = FrameDecoder(maximumLength: 16)
        decoder.feed(out)
        #expect(drain(&decoder) == [.frame(Array("{}".utf8))])
    }

    /// A length the 32-bit header cannot hold is refused, never truncated into a shorter frame
    /// that the browser would misread.
    @Test func lengthBeyond32Bits_isRefused() {
        var out = [UInt8](repeating: 0, count: 4)
        let tooLong = Int(UInt32.max) + 1
        #expect(throws: FrameError.bodyTooLarge(length: tooLong, maximum: Int(UInt32.max))) {
            try FrameEncoder.writeHeader(length: tooLong, into: &out)
        }
        #expect(out == [0, 0, 0, 0])
        #expect(throws: FrameError.self) { try FrameEncoder.writeHeader(length: -1, into: &out) }
    }
}
