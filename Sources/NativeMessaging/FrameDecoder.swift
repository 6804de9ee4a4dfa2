/// A pure state machine that turns a byte stream into native-messaging frames.
///
/// A frame is a 32-bit length in native byte order, then that many bytes of
/// body. The decoder never allocates more than `maximumLength` bytes for a
/// body: an oversized frame's body is skipped as it arrives and reported as
/// `.oversized` once the stream is past it, so the next frame decodes normally.
public struct FrameDecoder: Sendable {
    /// What the decoder produced from the bytes fed so far.
    public enum Event: Equatable, Sendable {
        /// A complete frame body.
        case frame([UInt8])
        /// A frame longer than the maximum, whose body was discarded.
        case oversized(length: Int)
    }

    private enum State: Sendable {
        case header
        case body(length: Int)
        case discarding(length: Int, remaining: Int)
    }

    /// The largest body that is decoded; longer ones are discarded.
    public let maximumLength: Int
    private var state: State = .header
    private var header: [UInt8] = []
    private var body: [UInt8] = []
    private var events: [Event] = []
    private var eventIndex = 0

    /// - Parameter maximumLength: the largest body to accept, at least 0.
    public init(maximumLength: Int) {
        self.maximumLength = max(0, maximumLength)
        header.reserveCapacity(4)
    }

    /// True when the decoder is between frames (a clean place for input to end).
    public var isAtFrameBoundary: Bool {
        if case .header = state { return header.isEmpty }
        return false
    }

    /// Feeds bytes; complete events become available from `nextEvent()`.
    public mutating func feed(_ input: UnsafeRawBufferPointer) {
        var offset = 0
        let count = input.count
        while offset < count {
            switch state {
            case .header:
                let take = min(4 - header.count, count - offset)
                header.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[offset..<(offset + take)]))
                offset += take
                if header.count == 4 { startBody() }
            case .body(let length):
                let take = min(length - body.count, count - offset)
                body.append(contentsOf: UnsafeRawBufferPointer(rebasing: input[offset..<(offset + take)]))
                offset += take
                if body.count == length { finishBody() }
            case .discarding(let length, let remaining):
                let take = min(remaining, count - offset)
                offset += take
                if take == remaining {
                    events.append(.oversized(length: length))
                    state = .header
                } else {
                    state = .discarding(length: length, remaining: remaining - take)
                }
            }
        }
    }

    /// Feeds bytes from an array (tests and small inputs).
    public mutating func feed(_ input: [UInt8]) {
        input.withUnsafeBytes { feed($0) }
    }

    /// The next completed event, oldest first, or nil when none is ready.
    public mutating func nextEvent() -> Event? {
        guard eventIndex < events.count else { return nil }
        let event = events[eventIndex]
        eventIndex += 1
        if eventIndex == events.count {
            events.removeAll(keepingCapacity: true)
            eventIndex = 0
        }
        return event
    }

    /// Declares the end of input.
    /// - Throws: `FrameError.truncatedHeader` or `.truncatedBody` when input
    ///   ended inside a frame. Pending events stay available.
    public func finish() throws(FrameError) {
        switch state {
        case .header:
            if !header.isEmpty { throw .truncatedHeader(received: header.count) }
        case .body(let length):
            throw .truncatedBody(expected: length, received: body.count)
        case .discarding(let length, let remaining):
            throw .truncatedBody(expected: length, received: length - remaining)
        }
    }

    private mutating func startBody() {
        // Native byte order, as the browsers write it.
        let raw = header.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        header.removeAll(keepingCapacity: true)
        // The length is checked against the maximum before anything is allocated.
        let length = Int(exactly: raw) ?? Int.max
        if length == 0 {
            events.append(.frame([]))
        } else if length > maximumLength {
            state = .discarding(length: length, remaining: length)
        } else {
            body = []
            body.reserveCapacity(length)
            state = .body(length: length)
        }
    }

    private mutating func finishBody() {
        events.append(.frame(body))
        body = []
        state = .header
    }
}
