/// A debugging protocol's bytes that are not a message: the connection is closed,
/// since nothing after a broken frame can be trusted to line up.
public enum DebuggerFramingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A message longer than the decoder takes (`DevToolsFrames.maximumMessageBytes`).
    case tooLong(limit: Int)
    /// Firefox's length prefix is not digits before a colon.
    case badLength(String)
    /// The message is not a JSON object.
    case notJSON(String)

    public var description: String {
        switch self {
        case .tooLong(let limit): return "a debugger message over \(limit) bytes"
        case .badLength(let text): return "a debugger message length that is not a number: '\(text)'"
        case .notJSON(let reason): return "a debugger message that is not a JSON object: \(reason)"
        }
    }
}
