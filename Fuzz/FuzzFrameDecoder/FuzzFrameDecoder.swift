// Fuzz target: FrameDecoder fed an arbitrary byte stream in arbitrary chunks.
//
// Input layout: byte 0 chooses `maximumLength` (0–255, so oversized frames are
// common), byte 1 seeds the chunk sizes, the rest is the stream. Checks:
// * the events equal those of a simple reference decoder over the whole stream;
// * no frame body exceeds `maximumLength`, every oversized length does;
// * `isAtFrameBoundary` and `finish()` agree with where the stream ended;
// * re-encoding the frames with FrameEncoder and decoding them again gives the same frames.
import BridgeSystem
import FuzzSupport
import NativeMessaging

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard input.count >= 2 else { return 0 }
    let maximum = Int(input[0])
    var seed = UInt32(input[1]) | 1
    let stream = Array(input[2...])

    var decoder = FrameDecoder(maximumLength: maximum)
    var events: [FrameDecoder.Event] = []
    var offset = 0
    while offset < stream.count {
        seed = seed &* 1_103_515_245 &+ 12_345
        let take = min(Int(seed >> 16) % 9, stream.count - offset)  // 0-byte feeds too
        stream[offset..<(offset + take)].withUnsafeBytes { decoder.feed($0) }
        offset += take
        while let event = decoder.nextEvent() { events.append(event) }
    }

    let (expected, endState) = referenceDecode(stream, maximum: maximum)
    check(events == expected, "events differ from the reference decoder: \(events) vs \(expected)")
    for event in events {
        switch event {
        case .frame(let body): check(body.count <= maximum, "a frame of \(body.count) bytes exceeds \(maximum)")
        case .oversized(let length): check(length > maximum, "oversized \(length) is within \(maximum)")
        }
    }
    check(decoder.isAtFrameBoundary == (endState == nil), "isAtFrameBoundary disagrees with the stream's end")
    do throws(FrameError) {
        try decoder.finish()
        check(endState == nil, "finish() accepted a stream that ended inside a frame")
    } catch {
        check(error == endState, "finish() threw \(error), expected \(String(describing: endState))")
    }

    // Round trip: encode the decoded frames and decode them in one feed.
    var encoded: [UInt8] = []
    var frames: [[UInt8]] = []
    for case .frame(let body) in events {
        frames.append(body)
        do throws(FrameError) {
            encoded += try FrameEncoder.encode(body)
        } catch {
            check(false, "FrameEncoder refused a \(body.count)-byte body: \(error)")
        }
    }
    var again = FrameDecoder(maximumLength: maximum)
    again.feed(encoded)
    var decodedAgain: [[UInt8]] = []
    while let event = again.nextEvent() {
        guard case .frame(let body) = event else {
            check(false, "re-encoded frame decoded as \(event)")
            continue
        }
        decodedAgain.append(body)
    }
    check(decodedAgain == frames, "re-encoded frames do not round-trip")
    check(again.isAtFrameBoundary, "re-encoded stream does not end on a frame boundary")
    return 0
}

/// The obvious decoder: whole stream, no chunks. Returns the events and, when
/// the stream ends inside a frame, the error `finish()` must throw.
private func referenceDecode(_ s: [UInt8], maximum: Int) -> ([FrameDecoder.Event], FrameError?) {
    var events: [FrameDecoder.Event] = []
    var i = 0
    while i < s.count {
        guard s.count - i >= 4 else { return (events, .truncatedHeader(received: s.count - i)) }
        let length = Int(s[i]) | Int(s[i + 1]) << 8 | Int(s[i + 2]) << 16 | Int(s[i + 3]) << 24
        i += 4
        let available = s.count - i
        if available < length { return (events, .truncatedBody(expected: length, received: available)) }
        events.append(length > maximum ? .oversized(length: length) : .frame(Array(s[i..<(i + length)])))
        i += length
    }
    return (events, nil)
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    FuzzDriver.check("FuzzFrameDecoder", condition, message())
}

@main enum FuzzMain {
    static func main() { FuzzDriver.run("FuzzFrameDecoder", fuzzOneInput) }
}
