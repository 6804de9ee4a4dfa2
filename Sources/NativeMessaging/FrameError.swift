import BridgeSystem

/// Errors of the framing layer.
public enum FrameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Input ended after `received` of the 4 header bytes.
    case truncatedHeader(received: Int)
    /// Input ended after `received` of `expected` body bytes.
    case truncatedBody(expected: Int, received: Int)
    /// A body too long to frame.
    case bodyTooLarge(length: Int, maximum: Int)
    /// Reading or writing the channel failed.
    case io(SystemError)

    public var description: String {
        switch self {
        case .truncatedHeader(let received):
            return "input ended inside a frame header (\(received) of 4 bytes); the browser closed the pipe mid-message"
        case .truncatedBody(let expected, let received):
            return
                "input ended inside a frame body (\(received) of \(expected) bytes); the browser closed the pipe mid-message"
        case .bodyTooLarge(let length, let maximum):
            return "a frame of \(length) bytes exceeds the maximum of \(maximum) bytes"
        case .io(let error):
            return error.description
        }
    }
}
