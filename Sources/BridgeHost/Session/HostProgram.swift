import BridgeJSON
import BridgeSystem
import NativeMessaging
import SharedSuite

nonisolated(unsafe) private var terminationRequested: sig_atomic_t = 0

/// The host executable's whole program, so `main.swift` stays one line.
public enum HostProgram {
    /// Exit status when the caller is refused.
    public static let callerRefusedStatus: Int32 = 3

    /// Runs the host as the browser launched it.
    /// - Parameter arguments: the process arguments, program name first.
    public static func run(arguments: [String]) -> Int32 {
        let options = Array(arguments.dropFirst())
        if options.first == "--version" {
            try? FileIO.writeAll(1, Array("extension-bridge-host \(BridgeVersion.current)\n".utf8))
            return 0
        }
        if options.first == "--help" || options.first == "-h" {
            try? FileIO.writeAll(1, Array(usage.utf8))
            return 0
        }
        Platform.ignoreSignal(SIGPIPE)
        Platform.installSignalHandler(SIGTERM) { _ in terminationRequested = 1 }
        Platform.installSignalHandler(SIGINT) { _ in terminationRequested = 1 }

        // Frames get a private duplicate of stdout; fd 1 becomes stderr, so a
        // stray print from any library lands in the log, not in the stream.
        let frameOutput = fcntl(1, F_DUPFD_CLOEXEC, 3)
        if frameOutput < 0 {
            try? FileIO.writeAll(2, Array("extension-bridge-host: cannot duplicate stdout\n".utf8))
            return 1
        }
        dup2(2, 1)

        let environment = Environment.current()
        let logger = Logger.standardError(environment: environment, name: "extension-bridge-host")
        let caller = Caller(arguments: options)
        let policy = CallerPolicy.load(environment: environment, executablePath: Platform.executablePath())
        let maxRequest =
            environment["EXTENSION_BRIDGE_MAX_REQUEST_BYTES"].flatMap { Int($0) }
            .map { max(0, $0) } ?? HostLimits.defaultMaxRequestBytes
        // Only a pipe or socket gets O_NONBLOCK: on a terminal it would change
        // the shell's open file description too.
        var outputInfo = stat()
        let isPipe =
            fstat(frameOutput, &outputInfo) == 0
            && ((outputInfo.st_mode & S_IFMT) == S_IFIFO || (outputInfo.st_mode & S_IFMT) == S_IFSOCK)
        let writeTimeout =
            isPipe
            ? environment["EXTENSION_BRIDGE_WRITE_TIMEOUT_MS"].flatMap { Int64($0) }.map { max(1, $0) }
                ?? HostLimits.writeTimeoutMilliseconds : nil
        let channel = StdioChannel(
            input: 0, output: frameOutput, maximumLength: maxRequest, writeTimeoutMilliseconds: writeTimeout)

        guard policy.allows(caller) else {
            logger.error("refused caller \(caller.identity) (allowlist: \(policy.source))")
            let reply = BridgeReply.error(
                .callerNotAllowed,
                "the caller \(caller.identity) is not allowed to use this host; run `extension-bridge doctor`, "
                    + "or `extension-bridge install --extension-id ID` to allow it")
            try? channel.send(reply.bytes)
            return callerRefusedStatus
        }

        let context = makeContext(environment: environment, caller: caller, logger: logger, maxRequest: maxRequest)
        let router = Router(context: context)
        let session = HostSession(channel: channel, router: router, logger: logger) { terminationRequested != 0 }
        logger.debug("serving \(caller.identity)")
        // Exit here, with everything still alive: freeing a parsed suite and
        // router on the way out costs a one-shot host time and changes nothing.
        exit(session.run().rawValue)
    }

    /// The storage the actions use; a container that cannot be resolved makes
    /// every storage action answer `storage_error` instead of stopping the host.
    static func makeContext(environment: Environment, caller: Caller, logger: Logger, maxRequest: Int) -> ActionContext
    {
        let groupID = environment["EXTENSION_BRIDGE_GROUP"] ?? GroupContainer.defaultGroupID
        do throws(SuiteError) {
            let container = try GroupContainer(groupID: groupID, environment: environment)
            return ActionContext(
                suite: Suite(container: container),
                queue: PendingQueue(container: container, limits: QueueLimits(environment: environment)),
                caller: caller, logger: logger, maxRequestBytes: maxRequest)
        } catch {
            logger.error("no group container: \(error)")
            let suite = MemorySuiteStore()
            suite.failure = error
            let queue = MemoryQueue()
            queue.failure = error
            return ActionContext(
                suite: suite, queue: queue, caller: caller, logger: logger, maxRequestBytes: maxRequest)
        }
    }

    static let usage = """
        extension-bridge-host \(BridgeVersion.current): the native-messaging host of ExtensionBridge.

        Browsers start it; people do not. It reads length-prefixed JSON requests on
        stdin and writes replies on stdout (docs/PROTOCOL.md). To install it for your
        browsers run `extension-bridge install`; to check it, `extension-bridge doctor`.

        Environment:
          EXTENSION_BRIDGE_ALLOWED_CALLERS   comma-separated origins or add-on ids (replaces the allowlist file)
          EXTENSION_BRIDGE_CONTAINER         the group container folder
          EXTENSION_BRIDGE_GROUP             the group id (default \(GroupContainer.defaultGroupID))
          EXTENSION_BRIDGE_LOG               error | warn | info | debug (default warn), to stderr
          EXTENSION_BRIDGE_MAX_REQUEST_BYTES inbound frame limit (default 67108864)
          EXTENSION_BRIDGE_WRITE_TIMEOUT_MS  how long a reply waits for the browser to read (default 30000)

        """
}
