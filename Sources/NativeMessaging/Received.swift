import BridgeSystem

/// What `FrameTransport.receive` found.
public enum Received: Equatable, Sendable {
    case frame([UInt8])
    case oversized(length: Int)
    /// No complete frame arrived within the timeout.
    case timedOut
    /// The descriptor passed as `wakeOn` became readable.
    case woken
    /// Input ended between frames.
    case endOfInput
    /// A signal interrupted the wait (the caller checks its flags).
    case interrupted
}
