import BridgeJSON

/// Chromium's DevTools protocol over `--remote-debugging-pipe`: each message is
/// JSON followed by a NUL byte, commands on the browser's descriptor 3, replies
/// and events on its descriptor 4. A pure state machine over bytes; the session
/// does the I/O.
public struct DevToolsFrames: Sendable {
    /// The longest message taken: more ends the connection rather than growing without bound.
    public static let maximumMessageBytes = 64 << 20

    private var buffer: [UInt8] = []
    /// Where the search for the next NUL resumes (bytes before it hold none).
    private var scanned = 0

    public init() {}

    /// One message as bytes to write.
    public static func encode(_ message: JSONValue) -> [UInt8] {
        JSONWriter.bytes(message) + [0]
    }

    /// Adds bytes read from the browser.
    public mutating func append(_ bytes: ArraySlice<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next whole message, or nil until more bytes arrive.
    /// - Throws: `DebuggerFramingError` for a message over the limit or one that is not a JSON object.
    public mutating func next() throws(DebuggerFramingError) -> JSONValue? {
        guard let end = buffer[scanned...].firstIndex(of: 0) else {
            scanned = buffer.count
            if buffer.count > DevToolsFrames.maximumMessageBytes {
                throw .tooLong(limit: DevToolsFrames.maximumMessageBytes)
            }
            return nil
        }
        let message = Array(buffer[..<end])
        buffer.removeFirst(end + 1)
        scanned = 0
        return try DevToolsFrames.object(message)
    }

    static func object(_ bytes: [UInt8]) throws(DebuggerFramingError) -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw .notJSON("\(error)")
        }
        guard value.objectValue != nil else { throw .notJSON("a \(value.typeName)") }
        return value
    }
}
