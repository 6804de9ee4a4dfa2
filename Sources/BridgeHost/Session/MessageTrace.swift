import BridgeJSON
import BridgeProtocol
import BridgeSystem

/// What crosses the bridge, reported to `extension-bridge run`: each message in and
/// out, the host's log lines, its start and end, one `TraceRecord` datagram each.
///
/// It exists only when `EXTENSION_BRIDGE_TRACE` names a socket (`run` sets it in the
/// browser it starts, and hosts inherit the browser's environment): without `run`
/// the host makes none, and the session's `trace?.` calls cost a nil check. A record
/// is sent without waiting; when `run` is behind, it is dropped and counted in the
/// next one. Secret values never leave the host (`shown(_:action:)`).
///
/// `@unchecked Sendable`: the host is one thread; the logger's `@Sendable` sink
/// captures this object, and nothing calls it from another thread.
final class MessageTrace: @unchecked Sendable {
    /// A request the host read: what its reply's record repeats.
    struct Request {
        var action: String
        var id: String
        var startedNanoseconds: Int64
    }

    /// Bodies above this are not parsed: their record names no action (run is a
    /// development tool; a 64 MiB request is shown by its size).
    static let largestParsedBody = 4 << 20
    /// What replaces a secret value in a record's body.
    static let hidden = "(hidden)"

    private let socket: FileDescriptor
    private let processID: Int32
    private let clock: MonotonicClock
    /// Who the host serves, once known.
    var caller = ""
    /// Records not sent since the last one that was (told in the next one).
    private(set) var dropped = 0

    init(socket: FileDescriptor, processID: Int32 = Platform.processID, clock: MonotonicClock = .system) {
        self.socket = socket
        self.processID = processID
        self.clock = clock
    }

    deinit { socket.close() }

    /// The trace `environment` asks for, or nil (the usual case: one lookup, nothing else).
    static func open(environment: Environment) -> MessageTrace? {
        guard let path = environment[EnvironmentVariable.trace] else { return nil }
        guard let socket = try? LocalSocket.connectDatagram(path) else { return nil }
        return MessageTrace(socket: socket)
    }

    // MARK: Records

    /// The host began serving `caller` (set `caller` first).
    func started(group: String) {
        var record = make(.start)
        record.status = group
        send(record)
    }

    /// The host ended with `status`.
    func ended(status: Int32) {
        var record = make(.end)
        record.status = String(status)
        send(record)
    }

    /// A message from the extension, read and about to be answered.
    func request(_ body: [UInt8]) -> Request {
        let parsed = body.count <= MessageTrace.largestParsedBody ? try? JSONParser.parse(body) : nil
        let action = parsed.map(MessageTrace.action(of:)) ?? ""
        let id = parsed?["id"].map { JSONWriter.string($0) } ?? ""
        var record = make(.request)
        record.action = action
        record.id = id
        record.bytes = body.count
        setBody(&record, body, parsed: parsed, action: action)
        send(record)
        return Request(action: action, id: id, startedNanoseconds: clock.nanoseconds())
    }

    /// A message over the inbound limit, discarded unread.
    func oversized(length: Int) -> Request {
        var record = make(.request)
        record.bytes = length
        send(record)
        return Request(action: "", id: "", startedNanoseconds: clock.nanoseconds())
    }

    /// The reply to `request`, written.
    func reply(_ body: [UInt8], to request: Request) {
        let parsed = try? JSONParser.parse(body)
        var record = make(.reply)
        record.action = request.action
        record.id = request.id
        record.status = parsed.map(MessageTrace.status(of:)) ?? ""
        record.bytes = body.count
        record.microseconds = max(0, (clock.nanoseconds() - request.startedNanoseconds) / 1000)
        setBody(&record, body, parsed: parsed, action: request.action)
        send(record)
    }

    /// The refusal sent to a caller the allowlist does not name, before any request.
    func refused(_ body: [UInt8]) {
        reply(body, to: Request(action: "", id: "", startedNanoseconds: clock.nanoseconds()))
    }

    /// A frame the host sent unasked (a change notification).
    func push(_ body: [UInt8]) {
        let parsed = try? JSONParser.parse(body)
        var record = make(.push)
        record.action = parsed?["event"]?.stringValue ?? ""
        record.bytes = body.count
        setBody(&record, body, parsed: parsed, action: record.action)
        send(record)
    }

    /// One of the host's log lines, as the logger wrote it (`warn: …`).
    func log(_ line: String) {
        var record = make(.log)
        record.body = Array(line.utf8)
        send(record)
    }

    private func make(_ kind: TraceRecord.Kind) -> TraceRecord {
        var record = TraceRecord(kind: kind, processID: processID, caller: caller)
        record.dropped = dropped
        return record
    }

    private func send(_ record: TraceRecord) {
        if socket.sendDatagram(record.encoded()) {
            dropped = 0
        } else {
            dropped += 1
        }
    }

    private func setBody(_ record: inout TraceRecord, _ body: [UInt8], parsed: JSONValue?, action: String) {
        var shownBody = body
        if let parsed {
            let (value, changed) = MessageTrace.shown(parsed, action: action)
            if changed { shownBody = JSONWriter.bytes(value) }
        }
        record.bodyTruncated = shownBody.count > TraceRecord.maxBodyBytes
        record.body = Array(shownBody.prefix(TraceRecord.maxBodyBytes))
    }

    // MARK: Reading a body

    /// The action a request names: `action`, else the legacy `message`, else empty.
    static func action(of request: JSONValue) -> String {
        request["action"]?.stringValue ?? request["message"]?.stringValue ?? ""
    }

    /// A reply's outcome: `success`, the error `code` (or `error` when it has none), or
    /// empty for a reply without `status` (the legacy reply).
    static func status(of reply: JSONValue) -> String {
        guard let status = reply["status"]?.stringValue else { return "" }
        return status == "error" ? reply["code"]?.stringValue ?? "error" : status
    }

    /// `value` with every secret value replaced by `hidden`: `getSecret`'s `value`, and
    /// any string member whose name says it holds one (`secret`, `password`, `passwd`,
    /// `token`, `credential`, in any case, anywhere in the name), at any depth. Hiding a
    /// harmless value costs a reader a glance; showing a secret cannot be undone.
    /// - Returns: the value to show, and whether anything was replaced.
    static func shown(_ value: JSONValue, action: String) -> (JSONValue, Bool) {
        var changed = false
        func walk(_ value: JSONValue, top: Bool) -> JSONValue {
            switch value {
            case .object(let members):
                var out: [String: JSONValue] = [:]
                for (key, member) in members {
                    let secret =
                        (top && action == "getSecret" && key == "value") || MessageTrace.namesASecret(key)
                    if secret, case .string = member {
                        out[key] = .string(hidden)
                        changed = true
                    } else {
                        out[key] = walk(member, top: false)
                    }
                }
                return .object(out)
            case .array(let items):
                return .array(items.map { walk($0, top: false) })
            default:
                return value
            }
        }
        let result = walk(value, top: true)
        return (result, changed)
    }

    static func namesASecret(_ key: String) -> Bool {
        let lower = key.lowercased()
        return ["secret", "password", "passwd", "token", "credential"].contains { lower.contains($0) }
    }
}
