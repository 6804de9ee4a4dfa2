// Fuzz target: the Router over an in-memory suite and queue, with arbitrary requests.
//
// Input: lines; each line is one frame body, parsed as the host parses it
// (depth limit 64) and handed to the same router, so sequences such as
// setSettings then getSettings are explored. Lines `!fail` and `!ok` turn
// storage failures on and off. Checks, for every reply: it is an object with
// "status" "success" or "error" (errors with a code and a message), or the
// legacy `{"delivery:enabled_status": Bool}`; it echoes a valid request id and
// never another one; it serializes to JSON that parses back to the same value.
import BridgeHost
import BridgeJSON
import BridgeSystem
import FuzzSupport
import SharedSuite

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    let suite = MemorySuiteStore([
        "extensionEnabled": .bool(true), "extensionTheme": .string("dark"),
        "vocabulary": .dictionary(["blue": .string("blauw"), "": .string("x"), "n": .int(1)]),
    ])
    let queue = MemoryQueue()
    let router = Router(
        context: ActionContext(
            suite: suite, queue: queue, caller: Caller(kind: .chromium, identity: "chrome-extension://fuzz/")))
    for line in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
        switch Array(line) {
        case Array("!fail".utf8):
            suite.failure = .corrupt(path: "/fuzz/suite.json", reason: "fuzz")
            queue.failure = .queueFull(items: 1, bytes: 1, maxItems: 1, maxBytes: 1)
        case Array("!ok".utf8):
            suite.failure = nil
            queue.failure = nil
        default:
            guard let request = try? JSONParser.parse(Array(line), maximumDepth: HostLimits.maxDepth) else { continue }
            checkReply(router.handle(request), to: request)
        }
    }
    return 0
}

private func checkReply(_ reply: JSONValue, to request: JSONValue) {
    guard let body = reply.objectValue else { return fail("reply is a \(reply.typeName)", request, reply) }
    if let status = body["status"] {
        guard status == "success" || status == "error" else { return fail("bad status", request, reply) }
        if status == "error" {
            guard let code = body["code"]?.stringValue, !code.isEmpty, body["message"]?.stringValue != nil else {
                return fail("an error without code and message", request, reply)
            }
        }
    } else {
        let legacy = body["delivery:enabled_status"]
        guard legacy?.boolValue != nil, body.keys.allSatisfy({ $0 == "delivery:enabled_status" || $0 == "id" })
        else { return fail("neither status nor the legacy key", request, reply) }
    }
    let requestID = request["id"]
    if let id = body["id"], id != requestID { return fail("reply id differs from the request id", request, reply) }
    if let requestID, isValidID(requestID), body["id"] != requestID {
        return fail("a valid request id is not echoed", request, reply)
    }
    let bytes = JSONWriter.bytes(reply)
    guard let back = try? JSONParser.parse(bytes, maximumDepth: 512), back == reply else {
        return fail("the reply does not serialize and parse back", request, reply)
    }
}

private func isValidID(_ id: JSONValue) -> Bool {
    switch id {
    case .string(let s): return s.count <= 128
    case .int, .double: return true
    default: return false
    }
}

private func fail(_ what: String, _ request: JSONValue, _ reply: JSONValue) {
    fatalError("FuzzRouter: \(what)\nrequest: \(JSONWriter.string(request))\nreply: \(JSONWriter.string(reply))")
}

@main enum FuzzMain {
    static func main() { FuzzDriver.run("FuzzRouter", fuzzOneInput) }
}
