import BridgeJSON
import BridgeSystem
import NativeMessaging
import SharedSuite

/// One native-messaging session: frames in, router, frames out, until the
/// browser closes stdin. Serves one-shot callers (`sendNativeMessage`) and
/// ports (`connectNative`) alike; after a `hello` it also watches the suite
/// and pushes `settingsChanged` when the public settings or rules change.
public final class HostSession {
    /// How the session ended, as an exit status.
    public enum Outcome: Int32, Equatable, Sendable {
        /// End of input between frames, EPIPE, or a termination signal.
        case clean = 0
        /// End of input inside a frame, a read error, or a reply that could not
        /// be written (the browser stopped reading past the write timeout).
        case protocolError = 1
    }

    private let channel: StdioChannel
    private let router: Router
    private let logger: Logger
    private let watchIntervalMilliseconds: Int32
    private let shouldStop: () -> Bool
    private var watching = false
    private var lastToken: FileIdentity?
    private var lastPublished: [EncodedJSON]?
    private var nextWatchCheck: Int64 = 0
    /// Set when a reply could not be written for a reason other than a closed pipe.
    private var writeFailed = false

    /// - Parameters:
    ///   - shouldStop: polled between frames and after signals (SIGTERM).
    public init(
        channel: StdioChannel, router: Router, logger: Logger, watchIntervalMilliseconds: Int32 = 250,
        shouldStop: @escaping () -> Bool = { false }
    ) {
        self.channel = channel
        self.router = router
        self.logger = logger
        self.watchIntervalMilliseconds = watchIntervalMilliseconds
        self.shouldStop = shouldStop
    }

    /// Serves frames until end of input; returns the exit status.
    public func run() -> Outcome {
        while !shouldStop() {
            var received: StdioChannel.Received
            do {
                received = try channel.receive(timeoutMilliseconds: watching ? watchIntervalMilliseconds : nil)
            } catch {
                logger.error("\(error)")
                return .protocolError
            }
            let reply: BridgeReply
            switch received {
            case .endOfInput:
                return .clean
            case .interrupted:
                continue
            case .timedOut:
                if !pushChangesIfAny() { return writeFailed ? .protocolError : .clean }
                continue
            case .oversized(let length):
                logger.warn("discarded a \(length)-byte message (limit \(channel.maximumFrameLength))")
                reply =
                    BridgeReply.error(
                        .messageTooLarge,
                        "the message is \(length) bytes, over the limit of \(channel.maximumFrameLength) bytes",
                        ["size": .int(length), "limit": .int(channel.maximumFrameLength)]
                    )
            case .frame(var body):
                received = .endOfInput  // drop this copy: answer() frees the body once parsed
                reply = answer(&body)
            }
            if !send(reply) { return writeFailed ? .protocolError : .clean }
            router.context.suite.releaseStaleFile()  // off the reply's path
            if watching && !pushChangesIfAny() { return writeFailed ? .protocolError : .clean }
        }
        return .clean
    }

    /// Decodes one frame body and routes it; parse failures become error replies.
    /// The body is emptied once parsed, so a 64 MiB message is not held twice
    /// while its action runs.
    func answer(_ body: inout [UInt8]) -> BridgeReply {
        let message: BridgeRequest.Parsed
        do {
            message = try BridgeRequest.parse(body, maximumDepth: HostLimits.maxDepth)
            body = []
        } catch {
            logger.info("refused a \(body.count)-byte message: \(error)")
            switch error {
            case .invalidUTF8: return BridgeReply.error(.invalidUTF8, "the message is not valid UTF-8: \(error)")
            case .tooDeep: return BridgeReply.error(.tooDeep, "\(error)", ["limit": .int(HostLimits.maxDepth)])
            case .syntax: return BridgeReply.error(.invalidJSON, "\(error)")
            }
        }
        let reply = router.reply(to: message)
        if !watching, case .request(let request) = message, request.action == "hello" {
            watching = true
            lastToken = try? router.context.suite.changeToken()
            lastPublished = publicState()
        }
        return reply
    }

    /// Writes one reply, replacing one over the browsers' limit. False when
    /// the browser is gone (EPIPE) or the write failed.
    func send(_ reply: BridgeReply) -> Bool {
        // The frame is built in place: 4 bytes of room for the header, and a
        // large cached member (a vocabulary) written from its own buffer.
        var pieces = reply.pieces(leaving: 4)
        var length = pieces.reduce(-4) { $0 + $1.count }
        let limit = router.context.maxReplyBytes
        if length > limit {
            logger.warn("reply of \(length) bytes replaced by reply_too_large")
            var error = BridgeReply.error(
                .replyTooLarge, "the reply would be \(length) bytes, over the browsers' limit of \(limit) bytes",
                ["size": .int(length), "limit": .int(limit)])
            error = error.echoing(reply["id"])
            pieces = error.pieces(leaving: 4)
            length = pieces.reduce(-4) { $0 + $1.count }
        }
        do {
            try FrameEncoder.writeHeader(length: length, into: &pieces[0])
            try channel.send(frame: pieces)
            return true
        } catch {
            if case .io(let e) = error, e.code == EPIPE {
                logger.info("the browser closed the pipe")
            } else if case .io(let e) = error, e.code == ETIMEDOUT {
                writeFailed = true
                logger.error("the browser stopped reading replies; giving up after the write timeout")
            } else {
                writeFailed = true
                logger.error("\(error)")
            }
            return false
        }
    }

    /// The settings and rules as the extension sees them; nil when unreadable.
    func publicState() -> [EncodedJSON]? {
        guard let snapshot = try? router.context.suite.snapshot() else { return nil }
        return router.context.published.both(of: snapshot)
    }

    /// Pushes `settingsChanged` when the suite changed in a way the extension
    /// can see. Costs one `stat` per interval. False when the browser is gone.
    func pushChangesIfAny() -> Bool {
        guard watching else { return true }
        let now = WallTime.now().milliseconds
        if now < nextWatchCheck { return true }
        nextWatchCheck = now + Int64(watchIntervalMilliseconds)
        let token: FileIdentity?
        do {
            token = try router.context.suite.changeToken()
        } catch {
            logger.warn("watching the suite: \(error)")
            return true
        }
        guard token != lastToken else { return true }
        lastToken = token
        guard let state = publicState(), state != lastPublished else { return true }
        lastPublished = state
        var event = BridgeReply(["event": "settingsChanged"])
        event.set("settings", encoded: state[0])
        if state[0].bytes.count + state[1].bytes.count + RulesPages.replyOverhead > router.context.maxReplyBytes {
            // Too big for one frame: say so; the extension fetches the pages (getPageState).
            event["event"] = "rulesChanged"
            event["rulesBytes"] = .int(state[1].bytes.count)
        } else {
            event.set("rules", encoded: state[1])
        }
        logger.debug("pushing \(event["event"]?.stringValue ?? "")")
        return send(event)
    }
}
