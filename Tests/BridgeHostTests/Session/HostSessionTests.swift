import BridgeJSON
import BridgeProtocol
import BridgeSystem
import NativeMessaging
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

/// A transport that plays back a script of what `receive` returns, feeding
/// frame bytes through a real `FrameDecoder` (so split and oversized frames
/// behave as on a pipe), and records what is sent.
final class ScriptedTransport: FrameTransport {
    enum Step {
        /// Bytes arriving on stdin, possibly part of a frame.
        case bytes([UInt8])
        /// The wait ends without input (a watcher's turn).
        case wake
        /// Run this, then go on (change the suite between frames).
        case run(() -> Void)
    }

    var steps: [Step]
    var sent: [[UInt8]] = []
    /// When set, `send` throws it instead of writing.
    var sendFailure: FrameError?
    /// Called after each successful send (to raise a signal mid-session).
    var afterSend: () -> Void = {}
    private var decoder: FrameDecoder

    init(_ steps: [Step], maximumLength: Int = 1 << 20) {
        self.steps = steps
        decoder = FrameDecoder(maximumLength: maximumLength)
    }

    var maximumFrameLength: Int { decoder.maximumLength }

    func receive(timeoutMilliseconds: Int32?, wakeOn: FileDescriptor?) throws(FrameError) -> Received {
        while true {
            if let event = decoder.nextEvent() {
                switch event {
                case .frame(let body): return .frame(body)
                case .oversized(let length): return .oversized(length: length)
                }
            }
            guard !steps.isEmpty else {
                try decoder.finish()
                return .endOfInput
            }
            switch steps.removeFirst() {
            case .bytes(let bytes): decoder.feed(bytes)
            case .wake: return .timedOut
            case .run(let body): body()
            }
        }
    }

    func send(frame pieces: [[UInt8]]) throws(FrameError) {
        if let sendFailure { throw sendFailure }
        sent.append(Array(pieces.joined()))
        afterSend()
    }

    /// The sent frames' bodies, parsed.
    func replies() throws -> [JSONValue] {
        try sent.map { frame in
            let length = frame.withUnsafeBytes { Int($0.loadUnaligned(as: UInt32.self)) }
            #expect(length == frame.count - 4)
            return try JSONParser.parse(Array(frame.dropFirst(4)))
        }
    }
}

func frame(_ json: JSONValue) -> [UInt8] {
    let body = JSONWriter.bytes(json)
    return (try? FrameEncoder.encode(body)) ?? []
}

@Suite struct HostSessionTests {
    struct Fixture {
        let tmp = TemporaryFolder()
        let clock = ManualClock()
        let suite = MemorySuiteStore(["extensionEnabled": .bool(false)])
        let endpoint: BridgeEndpoint
        let watcher: SuiteWatcher

        init() {
            endpoint = BridgeEndpoint(
                context: ActionContext(
                    suite: suite, queue: MemoryQueue(),
                    caller: Caller(kind: .chromium, identity: "chrome-extension://a/")),
                actions: BuiltInActions.all)
            // The stat fallback on a hand-moved clock: the session's logic without inotify timing.
            watcher = SuiteWatcher(
                container: GroupContainer(path: tmp.path + "/c"), clock: clock.clock, notifications: false)
        }

        func run(_ transport: ScriptedTransport, shouldStop: @escaping () -> Bool = { false }) -> HostSession.Outcome {
            HostSession(
                transport: transport, endpoint: endpoint, watcher: watcher, logger: .silent, shouldStop: shouldStop
            )
            .run()
        }
    }

    @Test func splitFrames_areAnsweredInOrder_andEOFBetweenFramesIsClean() throws {
        let f = Fixture()
        defer { f.tmp.remove() }
        let bytes = frame(["action": "getSettings", "id": 1]) + frame(["action": "queueCount", "id": 2])
        let transport = ScriptedTransport([
            .bytes(Array(bytes[0..<3])), .bytes(Array(bytes[3..<20])), .bytes(Array(bytes[20...])),
        ])
        #expect(f.run(transport) == .clean)
        let replies = try transport.replies()
        #expect(replies.map { $0["id"] } == [1, 2])
    }

    @Test func eofInsideAFrame_isAProtocolError() {
        let f = Fixture()
        defer { f.tmp.remove() }
        let transport = ScriptedTransport([.bytes(Array(frame(["action": "hello"]).prefix(6)))])
        #expect(f.run(transport) == .protocolError)
    }

    @Test func oversizedFrame_isAnsweredAndTheNextServed() throws {
        let f = Fixture()
        defer { f.tmp.remove() }
        let big = frame(["action": "getSettings", "pad": .string(String(repeating: "x", count: 200))])
        let transport = ScriptedTransport(
            [.bytes(big + frame(["action": "getSettings", "id": 9]))], maximumLength: 100)
        #expect(f.run(transport) == .clean)
        let replies = try transport.replies()
        #expect(replies.count == 2)
        #expect(replies[0]["code"] == "message_too_large")
        #expect(replies[0]["limit"] == 100)
        #expect(replies[1]["id"] == 9)
    }

    @Test func hello_startsPushes_onlyForChangesTheExtensionSees() throws {
        let f = Fixture()
        defer { f.tmp.remove() }
        let transport = ScriptedTransport([
            .wake,  // before hello: nothing is watched, nothing pushed
            .bytes(frame(["action": "hello", "id": 1])),
            .run {
                f.suite.values["unrelated"] = .int(1); f.clock.advance(milliseconds: 300)
            },
            .wake,  // a change the extension cannot see: no push
            .run {
                f.suite.values["extensionEnabled"] = .bool(true); f.clock.advance(milliseconds: 300)
            },
            .wake,  // a change it sees: one push
            .run { f.clock.advance(milliseconds: 300) },
            .wake,  // nothing new: no second push
        ])
        #expect(f.run(transport) == .clean)
        let replies = try transport.replies()
        #expect(replies.count == 2)
        #expect(replies[0]["id"] == 1)
        #expect(replies[1]["event"] == "pageState")
        #expect(replies[1]["settings"]?["enabled"] == true)
        #expect(replies[1]["id"] == nil)
    }

    @Test func withoutHello_nothingIsPushed() throws {
        let f = Fixture()
        defer { f.tmp.remove() }
        let transport = ScriptedTransport([
            .bytes(frame(["action": "getSettings", "id": 1])),
            .run {
                f.suite.values["extensionEnabled"] = .bool(true); f.clock.advance(milliseconds: 300)
            },
            .wake,
        ])
        #expect(f.run(transport) == .clean)
        #expect(try transport.replies().count == 1)
    }

    @Test func brokenPipe_endsCleanly_butAWriteTimeoutIsAProtocolError() {
        let f = Fixture()
        defer { f.tmp.remove() }
        let gone = ScriptedTransport([.bytes(frame(["action": "hello"]))])
        gone.sendFailure = .io(SystemError("write", "fd 3", code: Errno.brokenPipe))
        #expect(f.run(gone) == .clean)
        let stuck = ScriptedTransport([.bytes(frame(["action": "hello"]))])
        stuck.sendFailure = .io(SystemError("write", "fd 3", code: Errno.timedOut))
        #expect(f.run(stuck) == .protocolError)
    }

    /// SIGTERM arriving while a reply is written: the reply goes out whole,
    /// then the session ends without reading the next request.
    @Test func terminationDuringAReply_finishesItAndStops() throws {
        let f = Fixture()
        defer { f.tmp.remove() }
        var stop = false
        let transport = ScriptedTransport([
            .bytes(frame(["action": "getSettings", "id": 1]) + frame(["action": "getSettings", "id": 2]))
        ])
        transport.afterSend = { stop = true }
        #expect(f.run(transport, shouldStop: { stop }) == .clean)
        #expect(try transport.replies().map { $0["id"] } == [1])
    }
}
