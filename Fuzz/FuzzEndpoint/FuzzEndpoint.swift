// Fuzz target: the endpoint, the host's one way through, over an in-memory
// suite and queue, with arbitrary frame bodies.
//
// Input: lines; each line is one frame body handed to `BridgeEndpoint.respond`
// exactly as the session hands it, so parse failures and sequences such as
// setSettings then getSettings are explored. Every reply frame must carry its
// body's length in its header and be at most 1 MiB. Lines `!fail` and `!ok` turn
// storage failures on and off. Checks, for every reply: it is an object with
// "status" "success" or "error" (errors with a code and a message), or the
// legacy `{"delivery:enabled_status": Bool}`; it echoes a valid request id and
// never another one; it serializes to JSON that parses back to the same value.
import BridgeHost
import BridgeJSON
import BridgeProtocol
import BridgeSystem
import FuzzSupport
import SharedSuite
import TestSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let suite = MemorySuiteStore([
        "extensionEnabled": .bool(true), "extensionTheme": .string("dark"),
        "vocabulary": .dictionary(["blue": .string("blauw"), "": .string("x"), "n": .int(1)]),
    ])
    let queue = MemoryQueue()
    let endpoint = BridgeEndpoint(
        context: ActionContext(
            suite: suite, queue: queue, caller: Caller(kind: .chromium, identity: "chrome-extension://fuzz/")),
        actions: BuiltInActions.all)
    for line in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
        switch Array(line) {
        case Array("!fail".utf8):
            suite.failure = .corrupt(path: "/fuzz/suite.json", reason: "fuzz")
            queue.failure = .queueFull(items: 1, bytes: 1, maxItems: 1, maxBytes: 1)
        case Array("!ok".utf8):
            suite.failure = nil
            queue.failure = nil
        default:
            var body = Array(line)
            let request = try? JSONParser.parse(body, maximumDepth: ProtocolLimits.maxDepth)
            let frame = endpoint.respond(to: &body).frame
            let bytes = frame.bytes
            guard bytes.count >= 4, bytes.count - 4 == frame.bodyLength,
                frame.bodyLength <= ProtocolLimits.maxReplyBytes,
                bytes.withUnsafeBytes({ $0.loadUnaligned(as: UInt32.self) }) == UInt32(frame.bodyLength)
            else { fail("a frame whose header is not its length, or over 1 MiB", .null, .null) }
            guard let reply = try? JSONParser.parse(frame.body, maximumDepth: 512) else {
                fail("a reply that is not JSON", request ?? .null, .null)
            }
            guard let request else {
                let code = reply["code"]?.stringValue ?? ""
                guard ["invalid_json", "invalid_utf8", "too_deep"].contains(code) else {
                    fail("unparsable input answered with \(code)", .null, reply)
                }
                continue
            }
            checkReply(reply, to: request)
        }
    }
    return 0
}

private func checkReply(_ reply: JSONValue, to request: JSONValue) {
    guard let body = reply.objectValue else { fail("reply is a \(reply.typeName)", request, reply) }
    if let status = body["status"] {
        guard status == "success" || status == "error" else { fail("bad status", request, reply) }
        if status == "error" {
            guard let code = body["code"]?.stringValue, BridgeErrorCode(rawValue: code) != nil,
                body["message"]?.stringValue != nil
            else {
                fail("an error without code and message", request, reply)
            }
        }
    } else {
        let legacy = body["delivery:enabled_status"]
        guard legacy?.boolValue != nil, body.keys.allSatisfy({ $0 == "delivery:enabled_status" || $0 == "id" })
        else { fail("neither status nor the legacy key", request, reply) }
    }
    let requestID = request["id"]
    if let id = body["id"], id != requestID { fail("reply id differs from the request id", request, reply) }
    if let requestID, isValidID(requestID), body["id"] != requestID {
        fail("a valid request id is not echoed", request, reply)
    }
}

private func isValidID(_ id: JSONValue) -> Bool {
    switch id {
    case .string(let s): return s.utf8.count <= ProtocolLimits.maxIDBytes
    case .int, .double: return true
    default: return false
    }
}

private func fail(_ what: String, _ request: JSONValue, _ reply: JSONValue) -> Never {
    fatalError("FuzzEndpoint: \(what)\nrequest: \(JSONWriter.string(request))\nreply: \(JSONWriter.string(reply))")
}

@main enum FuzzMain {
    static func main() { FuzzDriver.run("FuzzEndpoint", fuzzOneInput) }
}
