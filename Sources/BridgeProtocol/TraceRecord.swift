/// One thing a host reports to `extension-bridge run`: a message that crossed the
/// bridge, a log line, or the host starting and ending. The host sends each record
/// as one datagram to the socket `EXTENSION_BRIDGE_TRACE` names; `run` decodes and
/// prints it. Both sides use this type, so they cannot disagree on the format.
///
/// The format is a header line of tab-separated fields (tab, line feed and
/// backslash escaped as `\t`, `\n`, `\\`), a line feed, then the body's bytes as
/// they are:
///
/// ```
/// EBT1 <kind> <pid> <caller> <action> <id> <status> <bytes> <microseconds> <dropped> <truncated>
/// <body>
/// ```
public struct TraceRecord: Equatable, Sendable {
    /// What the record reports.
    public enum Kind: String, Sendable, CaseIterable {
        /// A message from the extension (`action`, `id`, `bytes`; the body).
        case request
        /// The host's reply to one (`status`, `microseconds` since the request was read).
        case reply
        /// A message the host sent unasked (`action` is its event).
        case push
        /// One of the host's log lines (`status` is its level; the body is the line).
        case log
        /// The host began serving `caller`.
        case start
        /// The host ended (`status` is its exit status).
        case end
    }

    /// The first field: a decoder refuses other versions.
    public static let magic = "EBT1"
    /// The most body bytes a record carries: more are cut (`bodyTruncated`), `bytes` still
    /// counts them all. Small enough that a datagram always fits the socket's buffer.
    public static let maxBodyBytes = 32 * 1024

    public var kind: Kind
    /// The host process.
    public var processID: Int32
    /// Who the host serves: `chrome-extension://ID/` or the Firefox add-on id.
    public var caller: String
    /// The request's action (or the legacy message, or the push's event); empty when unknown.
    public var action: String = ""
    /// The request's `id` as JSON text (`7`, `"a"`); empty when it has none.
    public var id: String = ""
    /// A reply's `status` (`success`, or the error `code`); a log line's level; an end's exit status.
    public var status: String = ""
    /// The whole message body's size in bytes.
    public var bytes: Int = 0
    /// A reply: from reading the request to having written the reply.
    public var microseconds: Int64 = 0
    /// Records this host could not send before this one (the reader was behind).
    public var dropped: Int = 0
    /// The body, at most `maxBodyBytes` of it (secret values already replaced by the host).
    public var body: [UInt8] = []
    /// True when `body` is only the start of the message.
    public var bodyTruncated: Bool = false

    public init(kind: Kind, processID: Int32, caller: String) {
        self.kind = kind
        self.processID = processID
        self.caller = caller
    }

    /// The record as one datagram.
    public func encoded() -> [UInt8] {
        let fields = [
            TraceRecord.magic, kind.rawValue, String(processID), caller, action, id, status, String(bytes),
            String(microseconds), String(dropped), bodyTruncated ? "1" : "0",
        ]
        var out: [UInt8] = []
        out.reserveCapacity(96 + min(body.count, TraceRecord.maxBodyBytes))
        for (index, field) in fields.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "\t")) }
            for byte in field.utf8 {
                switch byte {
                case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                default: out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\n"))
        out += body.prefix(TraceRecord.maxBodyBytes)
        return out
    }

    /// Reads one datagram; nil for anything that is not a record of this version
    /// (another program writing to the socket gets its datagram ignored, never a crash).
    public static func decode(_ bytes: ArraySlice<UInt8>) -> TraceRecord? {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        var fields: [String] = []
        var field: [UInt8] = []
        var escaped = false
        for byte in bytes[bytes.startIndex..<newline] {
            if escaped {
                switch byte {
                case UInt8(ascii: "t"): field.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "n"): field.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "\\"): field.append(UInt8(ascii: "\\"))
                default: return nil
                }
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\t") {
                fields.append(String(decoding: field, as: UTF8.self))
                field = []
            } else {
                field.append(byte)
            }
        }
        guard !escaped else { return nil }
        fields.append(String(decoding: field, as: UTF8.self))
        guard fields.count == 11, fields[0] == magic, let kind = Kind(rawValue: fields[1]),
            let processID = Int32(fields[2]), let size = Int(fields[7]), let microseconds = Int64(fields[8]),
            let dropped = Int(fields[9]), fields[10] == "0" || fields[10] == "1"
        else { return nil }
        var record = TraceRecord(kind: kind, processID: processID, caller: fields[3])
        record.action = fields[4]
        record.id = fields[5]
        record.status = fields[6]
        record.bytes = size
        record.microseconds = microseconds
        record.dropped = dropped
        record.bodyTruncated = fields[10] == "1"
        record.body = Array(bytes[bytes.index(after: newline)...].prefix(maxBodyBytes))
        return record
    }
}
