import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

/// What a host reports to `extension-bridge run`, through a real datagram socket.
@Suite struct MessageTraceTests {
    /// A socket bound in a temporary folder, and a trace connected to it.
    struct Fixture {
        let tmp = TemporaryFolder()
        let receiver: FileDescriptor
        let trace: MessageTrace

        init() throws {
            receiver = try LocalSocket.bindDatagram(tmp.path + "/t.sock")
            trace = MessageTrace(socket: try LocalSocket.connectDatagram(tmp.path + "/t.sock"), processID: 77)
            trace.caller = "chrome-extension://abc/"
        }

        /// Every record sent so far.
        func records() -> [TraceRecord] {
            var out: [TraceRecord] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 17)
            while true {
                let n = buffer.withUnsafeMutableBytes { raw in (try? receiver.readOnce(into: raw)) ?? .bytes(0) }
                guard case .bytes(let count) = n, count > 0, let record = TraceRecord.decode(buffer[0..<count]) else {
                    return out
                }
                out.append(record)
            }
        }

        func remove() {
            receiver.close()
            tmp.remove()
        }
    }

    @Test func aSessionWithATrace_reportsEachRequestAndItsReply() throws {
        let f = try Fixture()
        defer { f.remove() }
        let endpoint = BridgeEndpoint(
            context: ActionContext(
                suite: MemorySuiteStore([:]), queue: MemoryQueue(),
                caller: Caller(kind: .chromium, identity: "chrome-extension://abc/")),
            actions: BuiltInActions.all)
        let transport = ScriptedTransport([
            .bytes(frame(["action": "getSettings", "id": 7]) + frame(["action": "frobnicate", "id": "x"]))
        ])
        let session = HostSession(transport: transport, endpoint: endpoint, watcher: nil, logger: .silent)
        session.trace = f.trace
        #expect(session.run() == .clean)
        let records = f.records()
        #expect(records.map(\.kind) == [.request, .reply, .request, .reply])
        #expect(records.map(\.action) == ["getSettings", "getSettings", "frobnicate", "frobnicate"])
        #expect(records.map(\.id) == ["7", "7", "\"x\"", "\"x\""])
        #expect(records[1].status == "success")
        #expect(records[3].status == "unknown_action")
        #expect(records[1].bytes == transport.sent[0].count - 4)
        #expect(records.allSatisfy { $0.caller == "chrome-extension://abc/" && $0.processID == 77 })
        #expect(records[0].body == Array(JSONWriter.bytes(["action": "getSettings", "id": 7])))
    }

    @Test func aGetSecretReply_reachesTheTraceWithItsValueHidden() throws {
        let f = try Fixture()
        defer { f.remove() }
        let secrets = MemorySecretStore()
        try secrets.store(Array("hunter2-value".utf8), named: "api-token", shared: true)
        let endpoint = BridgeEndpoint(
            context: ActionContext(
                suite: MemorySuiteStore([:]), queue: MemoryQueue(),
                caller: Caller(kind: .chromium, identity: "chrome-extension://abc/"), secrets: secrets),
            actions: BuiltInActions.all)
        let transport = ScriptedTransport([.bytes(frame(["action": "getSecret", "name": "api-token", "id": 1]))])
        let session = HostSession(transport: transport, endpoint: endpoint, watcher: nil, logger: .silent)
        session.trace = f.trace
        #expect(session.run() == .clean)
        // The browser got the value; the trace did not.
        #expect(String(decoding: transport.sent[0], as: UTF8.self).contains("hunter2-value"))
        let reply = try #require(f.records().last)
        #expect(reply.status == "success")
        #expect(!String(decoding: reply.body, as: UTF8.self).contains("hunter2"))
        #expect(try JSONParser.parse(reply.body)["value"] == .string(MessageTrace.hidden))
    }

    @Test func theLogger_alsoWritesEachLineToTheTrace() throws {
        let f = try Fixture()
        defer { f.remove() }
        let trace = f.trace
        let logger = Logger(level: .info) { _ in }.alsoWriting { trace.log($0) }
        logger.info("serving")
        logger.debug("not at this level")
        let records = f.records()
        #expect(records.map(\.kind) == [.log])
        #expect(records.first?.body == Array("info: serving".utf8))
    }

    @Test func aTraceWhoseReaderIsGone_dropsRecordsAndCountsThem_withoutWaiting() throws {
        let f = try Fixture()
        f.receiver.close()
        defer { f.tmp.remove() }
        let started = MonotonicClock.system.milliseconds
        f.trace.log("one")
        f.trace.log("two")
        #expect(f.trace.dropped == 2)
        #expect(MonotonicClock.system.milliseconds - started < 1000)
    }

    @Test func noTraceVariable_opensNoTrace() {
        #expect(MessageTrace.open(environment: Environment([:])) == nil)
        #expect(MessageTrace.open(environment: Environment(["EXTENSION_BRIDGE_TRACE": "/nonexistent/t.sock"])) == nil)
    }

    @Test func shown_hidesSecretValues_andNothingElse() {
        let reply: JSONValue = ["status": "success", "name": "api-token", "value": "s3cr3t", "id": 4]
        let (hidden, changed) = MessageTrace.shown(reply, action: "getSecret")
        #expect(changed)
        #expect(hidden["value"] == .string(MessageTrace.hidden))
        #expect(hidden["name"] == "api-token")
        let nested: JSONValue = ["settings": ["apiToken": "t", "theme": "dark"], "list": [["Password": "p"]]]
        let (shownNested, _) = MessageTrace.shown(nested, action: "appAction")
        #expect(shownNested["settings"]?["apiToken"] == .string(MessageTrace.hidden))
        #expect(shownNested["settings"]?["theme"] == "dark")
        #expect(shownNested["list"]?.arrayValue?.first?["Password"] == .string(MessageTrace.hidden))
        let plain: JSONValue = ["status": "success", "value": 3]
        #expect(MessageTrace.shown(plain, action: "getSettings") == (plain, false))
    }

    @Test func status_isSuccessTheErrorCodeOrNothing() {
        #expect(MessageTrace.status(of: ["status": "success"]) == "success")
        #expect(MessageTrace.status(of: ["status": "error", "code": "invalid_request"]) == "invalid_request")
        #expect(MessageTrace.status(of: ["delivery:enabled_status": true]) == "")
        #expect(MessageTrace.action(of: ["message": "request:enabled_status"]) == "request:enabled_status")
    }
}
