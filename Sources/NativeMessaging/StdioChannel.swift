import BridgeSystem

/// The host's side of a native-messaging pipe: frames in on one descriptor,
/// frames out on another. Reads in 64 KiB chunks; writes whole frames.
public final class StdioChannel {
    /// What `receive` found.
    public enum Received: Equatable {
        case frame([UInt8])
        case oversized(length: Int)
        /// No complete frame arrived within the timeout.
        case timedOut
        /// Input ended between frames.
        case endOfInput
        /// A signal interrupted the wait (the caller checks its flags).
        case interrupted
    }

    public let input: Int32
    public let output: Int32
    /// Larger inbound frames are discarded.
    public var maximumFrameLength: Int { decoder.maximumLength }
    private var decoder: FrameDecoder
    private var chunk: [UInt8]
    private var ended = false

    /// - Parameters:
    ///   - input: the descriptor frames arrive on (stdin).
    ///   - output: the descriptor frames leave on (a duplicate of the real stdout).
    ///   - maximumLength: larger inbound frames are discarded, never allocated.
    /// How long one reply may wait for the browser to read; nil waits for ever.
    public let writeTimeoutMilliseconds: Int64?

    /// - Parameter writeTimeoutMilliseconds: when set, `output` is made
    ///   non-blocking and a reply that cannot be written in time fails with
    ///   `ETIMEDOUT`, so a browser that stopped reading cannot hang the host.
    public init(
        input: Int32, output: Int32, maximumLength: Int, chunkSize: Int = 65_536, writeTimeoutMilliseconds: Int64? = nil
    ) {
        self.input = input
        self.output = output
        self.writeTimeoutMilliseconds = writeTimeoutMilliseconds
        if writeTimeoutMilliseconds != nil { FileIO.setNonBlocking(output, true) }
        self.decoder = FrameDecoder(maximumLength: maximumLength)
        // Not zero-filled: read(2) fills it, and filling 64 KiB byte by byte was a tenth of a
        // one-shot host's start-up.
        self.chunk = [UInt8](unsafeUninitializedCapacity: max(1, chunkSize)) { _, count in count = max(1, chunkSize) }
    }

    /// Waits for the next frame.
    /// - Parameter timeoutMilliseconds: nil waits for ever; otherwise returns
    ///   `.timedOut` when nothing complete arrived in time.
    /// - Throws: `FrameError` for input that ends inside a frame or a failed read.
    public func receive(timeoutMilliseconds: Int32? = nil) throws(FrameError) -> Received {
        while true {
            if let event = decoder.nextEvent() {
                switch event {
                case .frame(let body): return .frame(body)
                case .oversized(let length): return .oversized(length: length)
                }
            }
            if ended { return .endOfInput }
            if let timeout = timeoutMilliseconds {
                var fds = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                let ready = poll(&fds, 1, timeout)
                if ready == 0 { return .timedOut }
                if ready < 0 {
                    if errno == EINTR { return .interrupted }
                    throw .io(SystemError("poll", "fd \(input)"))
                }
            }
            let n = Platform.rawRead(input, &chunk, chunk.count)
            if n < 0 {
                if errno == EINTR { return .interrupted }
                throw .io(SystemError("read", "fd \(input)"))
            }
            if n == 0 {
                ended = true
                try decoder.finish()
                continue
            }
            chunk.withUnsafeBytes { decoder.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
    }

    /// Writes one frame with `body`, all of it, retrying on `EINTR`.
    public func send(_ body: [UInt8]) throws(FrameError) {
        try send(frame: [FrameEncoder.encode(body)])
    }

    /// Writes one frame given as consecutive pieces, header included (see
    /// `FrameEncoder.writeHeader`), so a large body part is written from where
    /// it is rather than copied into one buffer first.
    public func send(frame pieces: [[UInt8]]) throws(FrameError) {
        do {
            for piece in pieces {
                if let timeout = writeTimeoutMilliseconds {
                    try FileIO.writeAll(output, piece, timeoutMilliseconds: timeout)
                } else {
                    try FileIO.writeAll(output, piece)
                }
            }
        } catch {
            throw .io(error)
        }
    }
}
