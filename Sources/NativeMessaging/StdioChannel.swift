import BridgeSystem

/// The host's side of a native-messaging pipe: frames in on one descriptor,
/// frames out on another. Reads in 64 KiB chunks into a `FrameDecoder`;
/// writes whole frames.
public final class StdioChannel: FrameTransport {
    public let input: FileDescriptor
    public let output: FileDescriptor
    /// Larger inbound frames are discarded.
    public var maximumFrameLength: Int { decoder.maximumLength }
    /// How long one reply may wait for the browser to read; nil waits for ever.
    public let writeTimeoutMilliseconds: Int64?
    private let clock: MonotonicClock
    private var decoder: FrameDecoder
    private var chunk: [UInt8]
    private var ended = false

    /// - Parameters:
    ///   - input: the descriptor frames arrive on (stdin).
    ///   - output: the descriptor frames leave on (a duplicate of the real stdout).
    ///   - maximumLength: larger inbound frames are discarded, never allocated.
    ///   - writeTimeoutMilliseconds: when set, `output` is made non-blocking
    ///     and a reply that cannot be written in time fails with `ETIMEDOUT`,
    ///     so a browser that stopped reading cannot hang the host.
    ///   - clock: measures the write timeout.
    public init(
        input: FileDescriptor, output: FileDescriptor, maximumLength: Int, chunkSize: Int = 65_536,
        writeTimeoutMilliseconds: Int64? = nil, clock: MonotonicClock = .system
    ) {
        self.input = input
        self.output = output
        self.writeTimeoutMilliseconds = writeTimeoutMilliseconds
        self.clock = clock
        if writeTimeoutMilliseconds != nil { output.setNonBlocking(true) }
        self.decoder = FrameDecoder(maximumLength: maximumLength)
        // Not zero-filled: read(2) fills it, and filling 64 KiB byte by byte was a tenth of a
        // one-shot host's start-up.
        self.chunk = [UInt8](unsafeUninitializedCapacity: max(1, chunkSize)) { _, count in count = max(1, chunkSize) }
    }

    public func receive(timeoutMilliseconds: Int32? = nil, wakeOn: FileDescriptor? = nil) throws(FrameError)
        -> Received
    {
        while true {
            if let event = decoder.nextEvent() {
                switch event {
                case .frame(let body): return .frame(body)
                case .oversized(let length): return .oversized(length: length)
                }
            }
            if ended { return .endOfInput }
            if timeoutMilliseconds != nil || wakeOn != nil {
                // The wake descriptor first: a change waiting wins over more input.
                let watched = wakeOn.map { [$0, input] } ?? [input]
                let ready: FileDescriptor.WaitResult
                do {
                    ready = try FileDescriptor.waitForInput(watched, timeoutMilliseconds: timeoutMilliseconds)
                } catch {
                    throw .io(error)
                }
                switch ready {
                case .timedOut: return .timedOut
                case .interrupted: return .interrupted
                case .ready(index: 0) where wakeOn != nil: return .woken
                case .ready: break
                }
            }
            let source = input
            let attempt = chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(SystemError) in try source.readOnce(into: buffer) }
            }
            let result: FileDescriptor.ReadResult
            switch attempt {
            case .success(let value): result = value
            case .failure(let error): throw .io(error)
            }
            switch result {
            case .interrupted: return .interrupted
            case .bytes(0):
                ended = true
                try decoder.finish()
            case .bytes(let n):
                chunk.withUnsafeBytes { decoder.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            }
        }
    }

    /// Writes one frame with `body`, all of it, retrying on `EINTR`.
    public func send(_ body: [UInt8]) throws(FrameError) {
        try send(frame: [FrameEncoder.encode(body)])
    }

    public func send(frame pieces: [[UInt8]]) throws(FrameError) {
        do {
            for piece in pieces {
                if let timeout = writeTimeoutMilliseconds {
                    try output.writeAll(piece, timeoutMilliseconds: timeout, clock: clock)
                } else {
                    try output.writeAll(piece)
                }
            }
        } catch {
            throw .io(error)
        }
    }
}
