import BridgeJSON

/// Firefox's remote debugging protocol (what `web-ext` speaks): each message is its
/// length in bytes as decimal digits, a colon, then that many bytes of JSON. A pure
/// state machine over bytes; the session does the I/O.
public struct RemoteDebuggingFrames: Sendable {
    /// The longest message taken, checked on the length before anything is kept for it.
    public static let maximumMessageBytes = 64 << 20
    /// Digits in the longest length that can be within the limit.
    static let maximumDigits = 9

    private var buffer: [UInt8] = []

    public init() {}

    /// One message as bytes to write.
    public static func encode(_ message: JSONValue) -> [UInt8] {
        let body = JSONWriter.bytes(message)
        return Array("\(body.count):".utf8) + body
    }

    /// Adds bytes read from the browser.
    public mutating func append(_ bytes: ArraySlice<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole message, or nil until more bytes arrive.
    /// - Throws: `DebuggerFramingError` for a length that is not digits, one over the
    ///   limit, or a message that is not a JSON object.
    public mutating func next() throws(DebuggerFramingError) -> JSONValue? {
        guard let colon = buffer.prefix(RemoteDebuggingFrames.maximumDigits + 1).firstIndex(of: UInt8(ascii: ":"))
        else {
            if buffer.count > RemoteDebuggingFrames.maximumDigits || !buffer.allSatisfy(RemoteDebuggingFrames.isDigit) {
                throw .badLength(String(decoding: buffer.prefix(12), as: UTF8.self))
            }
            return nil
        }
        let digits = buffer[..<colon]
        guard !digits.isEmpty, digits.allSatisfy(RemoteDebuggingFrames.isDigit),
            let length = Int(String(decoding: digits, as: UTF8.self))
        else { throw .badLength(String(decoding: digits.prefix(12), as: UTF8.self)) }
        guard length <= RemoteDebuggingFrames.maximumMessageBytes else {
            throw .tooLong(limit: RemoteDebuggingFrames.maximumMessageBytes)
        }
        let start = colon + 1
        guard buffer.count - start >= length else { return nil }
        let message = Array(buffer[start..<(start + length)])
        buffer.removeFirst(start + length)
        return try DevToolsFrames.object(message)
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
