import BridgeJSON
import BridgeProtocol
import BridgeSystem
import NativeMessaging
import SharedSuite

/// A host executable's whole program: an app's `main.swift` makes one and
/// runs it.
///
/// ```swift
/// import BridgeHost
/// import BridgeSystem
///
/// let program = HostProgram(actions: BuiltInActions.all + [AppInfoAction()])
/// Platform.exit(program.run(arguments: CommandLine.arguments))
/// ```
///
/// Keep the program in a global (as above): what it built stays alive until
/// the process exits, and a one-shot host spends nothing freeing it.
public final class HostProgram {
    /// What differs between bridges built on this library.
    public struct Configuration: Sendable {
        /// The program's name in logs, `--version` and `--help`.
        public var name: String
        /// The group served when neither the configuration file nor
        /// `EXTENSION_BRIDGE_GROUP` names one.
        public var defaultGroupID: String
        /// The app this host belongs to: its name and version in `--version`, `--help` and `hello`.
        public var app: AppIdentity
        /// The project `extension-bridge new` made this host in (its name), nil for ExtensionBridge's own
        /// host: `--help` and a refused caller's reply then name that project's commands (its
        /// `scripts/install.sh`, `--config bridge.json`), never the built-in bridge's, which would
        /// change another host.
        public var project: String?

        public init(
            name: String = HostIdentity.defaultHostProduct, defaultGroupID: String = GroupContainer.defaultGroupID,
            app: AppIdentity = .extensionBridge, project: String? = nil
        ) {
            self.name = name
            self.defaultGroupID = defaultGroupID
            self.app = app
            self.project = project
        }

        /// How to allow one more extension (`ID`), and how to check the install, in this bridge's commands.
        var allowAndCheck: (allow: String, check: String) {
            guard let project else {
                return ("`extension-bridge install --extension-id ID`", "`extension-bridge doctor`")
            }
            return (
                "`scripts/install.sh --extension-id ID` there "
                    + "(`extension-bridge install --config bridge.json --extension-id ID`)",
                "`extension-bridge doctor --config bridge.json` in the \(project) project"
            )
        }
    }

    public let configuration: Configuration
    public let actions: [BridgeAction]
    /// The running session, kept for the life of the process.
    private var session: HostSession?

    public init(configuration: Configuration = Configuration(), actions: [BridgeAction] = BuiltInActions.all) {
        self.configuration = configuration
        self.actions = actions
    }

    /// Runs the host as the browser launched it.
    /// - Parameter arguments: the process arguments, program name first.
    /// - Returns: the exit status: 0 clean, 1 a protocol error,
    ///   `HostIdentity.callerRefusedStatus` for a refused caller.
    public func run(arguments: [String]) -> Int32 {
        let options = Array(arguments.dropFirst())
        if let text = information(for: options) {
            try? FileDescriptor.standardOutput.writeAll(Array(text.utf8))
            return 0
        }
        Signals.ignore(.pipe)
        Signals.ignore(.fileSizeLimit)  // past `ulimit -f` a write fails with EFBIG: an error reply, not a death
        Signals.requestTermination(on: [.terminate, .interrupt, .hangUp])

        // Frames get a private duplicate of stdout; fd 1 becomes stderr, so a
        // stray print from any library lands in the log, not in the stream.
        let frameOutput: FileDescriptor
        do {
            frameOutput = try FileDescriptor.standardOutput.duplicate(atLeast: 3)
            try FileDescriptor.standardError.duplicate(onto: .standardOutput)
        } catch {
            try? FileDescriptor.standardError.writeAll(Array("\(configuration.name): \(error)\n".utf8))
            return 1
        }

        let environment = Environment.current()
        // Only under `extension-bridge run`: without it, this lookup is all the trace costs.
        let trace = MessageTrace.open(environment: environment)
        let settings = HostSettings.load(
            environment: environment, defaultGroupID: configuration.defaultGroupID,
            executablePath: Platform.executablePath())
        var logger = Logger.standardError(level: settings.logLevel, name: configuration.name)
        if let trace { logger = logger.alsoWriting { trace.log($0) } }
        for warning in settings.warnings { logger.warn(warning) }
        let caller = Caller(arguments: options)
        trace?.caller = caller.identity
        let maxRequest = Int(
            HostProgram.clamped(
                environment[EnvironmentVariable.maxRequestBytes], default: Int64(ProtocolLimits.defaultMaxRequestBytes),
                range: 0...Int64(Int32.max)))
        let channel = HostProgram.channel(writingTo: frameOutput, maxRequest: maxRequest, environment: environment)
        guard settings.policy.allows(caller) else {
            return HostProgram.refuse(
                caller, policy: settings.policy, on: channel, logger: logger, commands: configuration.allowAndCheck,
                trace: trace)
        }

        let (context, container) = makeContext(
            environment: environment, settings: settings, caller: caller, logger: logger, maxRequest: maxRequest)
        let endpoint = BridgeEndpoint(context: context, actions: actions)
        let watcher = container.map {
            SuiteWatcher(container: $0, notifications: environment[EnvironmentVariable.watch] != "poll")
        }
        let session = HostSession(
            transport: channel, endpoint: endpoint, watcher: watcher, logger: logger,
            shouldStop: { Signals.terminationRequested })
        self.session = session
        logger.debug("serving \(caller.identity) from group \(settings.groupID)")
        session.trace = trace
        trace?.started(group: settings.groupID)
        let status = session.run().rawValue
        trace?.ended(status: status)
        return status
    }

    /// What `--version`, `--actions` and `--help` print; nil for anything else (a browser's
    /// arguments), which runs the host.
    func information(for options: [String]) -> String? {
        switch options.first {
        case "--version": return configuration.app.versionLine(program: configuration.name) + "\n"
        // What `hello` would list, without a caller or a suite: `doctor --config` compares a
        // project's build with the installed host this way.
        case "--actions": return BridgeEndpoint.actionNames(of: actions).joined(separator: "\n") + "\n"
        case "--help", "-h": return usage
        default: return nil
        }
    }

    /// The channel to the browser: stdin in, `output` out, with the write timeout when `output`
    /// is a pipe or socket (only those get O_NONBLOCK: on a terminal it would change the shell's
    /// open file description too).
    static func channel(writingTo output: FileDescriptor, maxRequest: Int, environment: Environment) -> StdioChannel {
        let isPipe = output.status()?.isPipeOrSocket ?? false
        let writeTimeout =
            isPipe
            ? HostProgram.clamped(
                environment[EnvironmentVariable.writeTimeoutMilliseconds], default: HostLimits.writeTimeoutMilliseconds,
                range: 1...86_400_000) : nil
        return StdioChannel(
            input: .standardInput, output: output, maximumLength: maxRequest, writeTimeoutMilliseconds: writeTimeout)
    }

    /// Tells a caller the allowlist refuses: one `caller_not_allowed` frame, before any request
    /// is read, and the exit status that says so.
    /// - Parameters:
    ///   - commands: how to allow one more extension and how to check the install, in this
    ///     bridge's commands (`Configuration.allowAndCheck`).
    ///   - trace: `run`'s trace, told of the refusal, when there is one.
    static func refuse(
        _ caller: Caller, policy: CallerPolicy, on channel: StdioChannel, logger: Logger,
        commands: (allow: String, check: String) = Configuration().allowAndCheck, trace: MessageTrace? = nil
    ) -> Int32 {
        logger.error(
            "refused caller \(DisplayText.escaped(caller.identity, maxBytes: 256)) (allowlist: \(policy.source))")
        let refusal = BridgeReply.error(
            .callerNotAllowed,
            "the caller \(caller.identity) is not allowed to use this host; run \(commands.check), or "
                + "\(commands.allow) to allow it")
        try? channel.send(refusal.bytes)
        trace?.refused(refusal.bytes)
        return HostIdentity.callerRefusedStatus
    }

    /// An endpoint over a group's real suite and queue, for answering in
    /// process: a Safari `SafariWebExtensionHandler` hands it
    /// `userInfo[SFExtensionMessageKey]` (through `BridgeFoundation`).
    /// - Parameters:
    ///   - groupID: the App Group whose suite to serve.
    ///   - callerIdentity: who asks, as `hello` reports it (`safari`).
    ///   - actions: the bridge's actions.
    ///   - environment: where the container is (`HOME`, `EXTENSION_BRIDGE_CONTAINER`).
    public static func inProcessEndpoint(
        groupID: String, callerIdentity: String, actions: [BridgeAction], environment: Environment = .current()
    ) -> BridgeEndpoint {
        let settings = HostSettings(
            groupID: groupID, logLevel: .warn, policy: CallerPolicy(allowed: [callerIdentity], source: "in process"))
        let program = HostProgram(actions: actions)
        let (context, _) = program.makeContext(
            environment: environment, settings: settings, caller: Caller(kind: .unknown, identity: callerIdentity),
            logger: .silent, maxRequest: ProtocolLimits.defaultMaxRequestBytes)
        return BridgeEndpoint(context: context, actions: actions)
    }

    /// A number from the environment, clamped to `range`; `fallback` when
    /// unset or not a number. Never traps, whatever the text.
    static func clamped(_ text: String?, default fallback: Int64, range: ClosedRange<Int64>) -> Int64 {
        guard let text, let value = Int64(text) else { return fallback }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// The storage the actions use; a container that cannot be resolved makes
    /// every storage action answer `storage_error` instead of stopping the host.
    private func makeContext(
        environment: Environment, settings: HostSettings, caller: Caller, logger: Logger, maxRequest: Int
    ) -> (ActionContext, GroupContainer?) {
        do throws(SuiteError) {
            let container = try GroupContainer(groupID: settings.groupID, environment: environment)
            let context = ActionContext(
                suite: Suite(container: container),
                queue: PendingQueue(container: container, limits: QueueLimits(environment: environment)),
                caller: caller, logger: logger, groupID: settings.groupID,
                secrets: SecretStores.system(groupID: settings.groupID, environment: environment),
                maxRequestBytes: maxRequest, app: configuration.app)
            return (context, container)
        } catch {
            logger.error("no group container: \(error)")
            let storage = UnavailableStorage(error)
            // Secrets need no container, but a group id no container takes is no keyring attribute either.
            let secrets: any SecretStore =
                HostIdentity.isGroupID(settings.groupID)
                ? SecretStores.system(groupID: settings.groupID, environment: environment)
                : UnavailableSecretStore(reason: "the host's group id is not valid: \(error)")
            let context = ActionContext(
                suite: storage, queue: storage, caller: caller, logger: logger, groupID: settings.groupID,
                secrets: secrets,
                maxRequestBytes: maxRequest, app: configuration.app)
            return (context, nil)
        }
    }

    var usage: String {
        let install: String
        let writer: String
        if let project = configuration.project {
            install = """
                To install it for your
                browsers run `scripts/install.sh` in the \(project) project (it builds this host
                and runs `extension-bridge install --config bridge.json`); to check it,
                `extension-bridge doctor --config bridge.json` there.
                """
            writer = "`extension-bridge install --config bridge.json`"
        } else {
            install = """
                To install it for your
                browsers run `extension-bridge install`; to check it, `extension-bridge doctor`.
                """
            writer = "`extension-bridge install`"
        }
        return """
            \(configuration.app.versionLine(program: configuration.name)): a native-messaging host built on ExtensionBridge.

            --version prints the app and version, --actions the actions hello lists.

            Browsers start it; people do not. It reads length-prefixed JSON requests on
            stdin and writes replies on stdout (docs/PROTOCOL.md). \(install)

            Configuration: \(HostConfiguration.fileName(forExecutable: configuration.name)) beside this binary
            (written by \(writer): group, log level, allowed callers).

            Environment (overrides the file):
              EXTENSION_BRIDGE_ALLOWED_CALLERS   comma-separated origins or add-on ids (then no file is read)
              EXTENSION_BRIDGE_CONTAINER         the group container folder
              EXTENSION_BRIDGE_GROUP             the group id (default \(configuration.defaultGroupID))
              EXTENSION_BRIDGE_LOG               error | warn | info | debug (default warn), to stderr
              EXTENSION_BRIDGE_MAX_REQUEST_BYTES inbound frame limit (default 67108864)
              EXTENSION_BRIDGE_SECRET_TIMEOUT_MS how long getSecret waits for the Secret Service (default 30000)
              EXTENSION_BRIDGE_WATCH             poll: look for suite changes every 250 ms instead of inotify
              EXTENSION_BRIDGE_WRITE_TIMEOUT_MS  how long a reply waits for the browser to read (default 30000)

            """
    }
}
