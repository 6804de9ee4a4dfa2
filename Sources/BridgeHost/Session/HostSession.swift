import BridgeSystem
import NativeMessaging
import SharedSuite

/// One native-messaging session: frames in, the endpoint, frames out, until
/// the browser closes stdin. Serves one-shot callers (`sendNativeMessage`)
/// and ports (`connectNative`) alike. When a reply starts change
/// notifications (`hello`), it starts the suite watcher and, each time the
/// watcher says the suite may have changed, writes what the endpoint has to
/// push. It makes no protocol decisions of its own.
public final class HostSession {
    /// How the session ended, as an exit status.
    public enum Outcome: Int32, Equatable, Sendable {
        /// End of input between frames, EPIPE, or a termination signal.
        case clean = 0
        /// End of input inside a frame, a read error, or a reply that could not
        /// be written (the browser stopped reading past the write timeout).
        case protocolError = 1
    }

    private let transport: FrameTransport
    private let endpoint: BridgeEndpoint
    private let watcher: SuiteWatcher?
    private let logger: Logger
    private let shouldStop: () -> Bool
    private var watching = false
    /// Reports each frame to `extension-bridge run`; nil unless it started the browser.
    var trace: MessageTrace?

    /// - Parameters:
    ///   - transport: where frames come from and go to (the stdio pipes).
    ///   - endpoint: answers each frame and decides what to push.
    ///   - watcher: started after `hello`; nil never pushes.
    ///   - logger: for the session's own problems (never request content).
    ///   - shouldStop: polled between frames and after signals (SIGTERM).
    public init(
        transport: FrameTransport, endpoint: BridgeEndpoint, watcher: SuiteWatcher?, logger: Logger,
        shouldStop: @escaping () -> Bool = { false }
    ) {
        self.transport = transport
        self.endpoint = endpoint
        self.watcher = watcher
        self.logger = logger
        self.shouldStop = shouldStop
    }

    /// Serves frames until end of input; returns how it ended.
    public func run() -> Outcome {
        while !shouldStop() {
            let received: Received
            do {
                received = try transport.receive(
                    timeoutMilliseconds: watching ? watcher?.waitTimeoutMilliseconds() : nil,
                    wakeOn: watching ? watcher?.descriptor : nil)
            } catch {
                logger.error("\(error)")
                return .protocolError
            }
            switch received {
            case .endOfInput:
                return .clean
            case .interrupted:
                continue
            case .timedOut, .woken:
                if let outcome = pushChanges() { return outcome }
            case .oversized(let length):
                logger.warn("discarded a \(length)-byte message (limit \(transport.maximumFrameLength))")
                let traced = trace?.oversized(length: length)
                let response = endpoint.respondToOversized(length: length, limit: transport.maximumFrameLength)
                if let outcome = send(response.frame) { return outcome }
                if let traced { trace?.reply(response.frame.body, to: traced) }
            case .frame(var body):
                let traced = trace?.request(body)
                let response = endpoint.respond(to: &body)
                if response.startsChangeNotifications && !watching, let watcher {
                    watcher.start()  // before noting the state, so no change falls between
                    endpoint.startChangeNotifications()
                    watching = true
                }
                if let outcome = send(response.frame) { return outcome }
                if let traced { trace?.reply(response.frame.body, to: traced) }
                endpoint.finishReply()  // off the reply's path
            }
        }
        return .clean
    }

    /// Pushes a `pageState` event when the watcher saw a change the extension
    /// can see. Returns an outcome when the session must end.
    private func pushChanges() -> Outcome? {
        guard watching, let watcher, watcher.takeChanges(), let frame = endpoint.changeNotification() else {
            return nil
        }
        let outcome = send(frame)
        if outcome == nil { trace?.push(frame.body) }
        return outcome
    }

    /// Writes one frame. Returns an outcome when the session must end: the
    /// browser is gone (EPIPE, clean) or stopped reading (write timeout).
    private func send(_ frame: BridgeEndpoint.OutboundFrame) -> Outcome? {
        do {
            try transport.send(frame: frame.pieces)
            return nil
        } catch {
            if case .io(let failure) = error, failure.isBrokenPipe {
                logger.info("the browser closed the pipe")
                return .clean
            }
            if case .io(let failure) = error, failure.isTimeout {
                logger.error("the browser stopped reading replies; giving up after the write timeout")
            } else {
                logger.error("\(error)")
            }
            return .protocolError
        }
    }
}
