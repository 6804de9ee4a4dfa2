import BridgeSystem

/// Where a session's frames come from and go to: the stdio pipes in the host
/// (`StdioChannel`), an in-memory double in tests.
public protocol FrameTransport: AnyObject {
    /// Larger inbound frames are discarded, never allocated.
    var maximumFrameLength: Int { get }

    /// Waits for the next frame.
    /// - Parameters:
    ///   - timeoutMilliseconds: nil waits for ever; otherwise returns
    ///     `.timedOut` when nothing complete arrived in time.
    ///   - wakeOn: a descriptor that ends the wait with `.woken` when it
    ///     becomes readable (a folder watch), or nil.
    /// - Throws: `FrameError` for input that ends inside a frame or a failed read.
    func receive(timeoutMilliseconds: Int32?, wakeOn: FileDescriptor?) throws(FrameError) -> Received

    /// Writes one frame given as consecutive pieces, header included (see
    /// `FrameEncoder.writeHeader`).
    func send(frame pieces: [[UInt8]]) throws(FrameError)
}
