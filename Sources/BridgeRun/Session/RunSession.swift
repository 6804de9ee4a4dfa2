import BridgeJSON
import BridgeProtocol
import BridgeSystem
import BrowserSupport
import SharedSuite

/// One `extension-bridge run`: the host built if it is missing or older than its
/// sources, a browser started with a throwaway profile in a private folder (the
/// extension loaded unpacked, the host registered for that profile only), every
/// message, host log line and extension error printed as it comes, the extension
/// reloaded when its files change and the host rebuilt when its sources do; and at
/// the end, every process it started stopped and every file it wrote removed.
///
/// Single-threaded: one loop waits on the browser's debugging connection, the hosts'
/// trace socket, the browser's output and a running build, and looks at the sources
/// every 300 ms. SIGINT, SIGTERM and SIGHUP end the loop; cleaning up follows on every
/// path out of `run()`.
public final class RunSession {
    /// What the person asked for.
    public struct Options: Equatable, Sendable {
        public var browser: RunBrowser
        /// Opened in the first tab once the extension is loaded.
        public var url: String?
        /// Bodies, every console level, hosts starting and ending.
        public var verbose: Bool
        /// No window: for tests and scripts.
        public var headless: Bool

        public init(browser: RunBrowser, url: String?, verbose: Bool, headless: Bool) {
            self.browser = browser
            self.url = url
            self.verbose = verbose
            self.headless = headless
        }
    }

    let project: RunProject
    let options: Options
    let environment: [String: String]
    let formatter: RunLineFormatter
    let output: (String) -> Void
    let builder: HostBuilder
    let clock = MonotonicClock.system

    var folder: RunFolder?
    var hostPath = ""
    var builtHostPath = ""
    var browserProcess: ChildProcess?
    var browserOutput: FileDescriptor?
    var browserLines = LineBuffer()
    var connection: DebuggerConnection?
    var debugger: (any BrowserDebugger)?
    var trace: FileDescriptor?
    /// Hosts that reported their start and not yet their end.
    var hostProcesses: Set<Int32> = []
    var build: BuildJob?
    var extensionTree = SourceTree()
    var hostTree = SourceTree()
    var changedExtensionFiles: [String] = []
    var lastExtensionChange: Int64 = 0
    var pendingURL: String?
    var ready = false
    /// Set when the browser reports that the extension did not load at its start: the run ends with it.
    var loadFailure: RunError?
    /// A reload was asked for: a load error after it is the reload's (its reply says so), not the start's.
    var reloadRequested = false
    var startedAt: Int64 = 0

    /// - Parameters:
    ///   - project: the bridge to run.
    ///   - options: what the person asked for.
    ///   - environment: this process's environment (the browser gets it, changed; builds get it as it is).
    ///   - output: prints one line.
    public init(
        project: RunProject, options: Options, environment: [String: String], output: @escaping (String) -> Void
    ) {
        self.project = project
        self.options = options
        self.environment = environment
        self.formatter = RunLineFormatter(verbose: options.verbose)
        self.output = output
        self.builder = HostBuilder(project: project, environment: environment)
    }

    /// Runs until Ctrl-C, SIGTERM, or the browser closing.
    /// - Returns: 0, or 1 when the browser ended on its own with a failure.
    /// - Throws: `RunError` when it cannot start; what it started is stopped and removed first.
    public func run() throws(RunError) -> Int32 {
        // Before anything: the folder and every build need it.
        let parent = try RunFolder.parent(temporaryDirectory: environment["TMPDIR"])
        if let refusal = project.untrustedFile() { throw .untrusted(refusal) }
        Signals.requestTermination(on: [.interrupt, .terminate, .hangUp])
        let executable = try browserExecutable()
        if !options.headless && environment["DISPLAY"] == nil && environment["WAYLAND_DISPLAY"] == nil {
            throw .noDisplay
        }
        // The folder first: asking SwiftPM where the host is writes in the folder, not in TMPDIR.
        let made: RunFolder
        do {
            made = try RunFolder.create(in: parent)
        } catch {
            throw .folder(error)
        }
        folder = made
        defer { cleanUp() }
        do {
            try prepareHost(in: made)
        } catch {
            // Ctrl-C during the first build ends the build (its process group): a stop, not a failure.
            guard Signals.terminationRequested else { throw error }
        }
        if Signals.terminationRequested {
            status("stopped before the browser started")
            return 0
        }
        try start(executable, in: made)
        let exit = loop()
        if let loadFailure { throw loadFailure }
        return exit
    }

    func emit(_ event: RunEvent) {
        for line in formatter.lines(event, at: WallTime.now()) { output(line) }
    }

    func status(_ text: String) { emit(.status(text)) }

    // MARK: Starting

    private func browserExecutable() throws(RunError) -> String {
        let searchPath = environment["PATH"]
        if let found = options.browser.executable(searchPath: searchPath) { return found }
        // Only commands this machine has: apt-get (with sudo unless root), the other browser if installed.
        var hints: [String] = []
        let package = options.browser == .chromium ? "chromium" : "firefox-esr"
        if Platform.isExecutableFile("/usr/bin/apt-get") {
            if Platform.effectiveUserID == 0 {
                hints.append("install it with `apt-get install \(package)`")
            } else if Platform.executable(named: "sudo", searchPath: searchPath) != nil {
                hints.append("install it with `sudo apt-get install \(package)`")
            }
        }
        if let other = RunBrowser.allCases.first(where: { $0 != options.browser }),
            other.executable(searchPath: searchPath) != nil
        {
            hints.append("pass --browser \(other.rawValue)")
        }
        throw .noBrowser(
            options.browser, looked: options.browser.candidates,
            installHint: hints.isEmpty ? nil : hints.joined(separator: ", or "))
    }

    /// Builds the host when it is missing or older than its sources, as the bridge's own script does.
    private func prepareHost(in folder: RunFolder) throws(RunError) {
        hostTree = SourceTree.scan(project.hostSources)
        extensionTree = SourceTree.scan(project.extensionSources)
        builtHostPath = try builder.builtHostPath(temporaryDirectory: folder.temporary)
        if HostBuilder.isStale(builtHostPath, sources: hostTree) {
            status("building the host, as \(project.buildScript) does: \(try builder.commandLine())")
            try builder.buildNow { [weak self] line in self?.emit(.build(line)) }
            guard Platform.isExecutableFile(builtHostPath) else { throw .noHostBinary(path: builtHostPath) }
        } else {
            status("the host is up to date: \(builtHostPath)")
        }
    }

    private func start(_ executable: String, in folder: RunFolder) throws(RunError) {
        hostPath = folder.hostFolder + "/" + project.hostProduct
        if let refusal = project.untrustedFile(builtHost: builtHostPath) { throw .untrusted(refusal) }
        try HostBuilder.install(builtHostPath, at: hostPath)
        do {
            trace = try LocalSocket.bindDatagram(folder.traceSocket)
        } catch {
            throw .folder(error)
        }
        let uuid = RunSession.randomUUID()
        let plan = LaunchPlan(
            LaunchPlan.Inputs(
                browser: options.browser, executable: executable, project: project, folder: folder, hostPath: hostPath,
                environment: environment, container: container(), xauthority: xauthority(),
                headless: options.headless, isRoot: Platform.effectiveUserID == 0, firefoxUUID: uuid))
        for file in plan.files {
            do {
                try FileSystem.makeDirectories(FileSystem.parentPath(file.path))
                try FileSystem.writeAtomically(file.path, file.bytes, permissions: 0o600)
            } catch {
                throw .folder(error)
            }
        }
        try spawn(plan)
        let extensionFolder = project.extensionFolder(for: options.browser)
        let roles = ExtensionRoles.load(extensionFolder: extensionFolder)
        switch options.browser {
        case .chromium:
            debugger = ChromiumDebugger(extensionID: project.chromiumID, extensionFolder: extensionFolder, roles: roles)
        case .firefox:
            connection = try connectFirefox(folder)
            debugger = FirefoxDebugger(
                addonID: project.firefoxID, uuid: uuid, extensionFolder: extensionFolder, roles: roles)
        }
        startedAt = clock.milliseconds
        pendingURL = options.url
        status(
            "\(options.browser.rawValue) started (pid \(browserProcess?.processID ?? 0)) with \(project.name)'s "
                + "extension and host, in a throwaway profile in \(folder.path); Ctrl-C stops it and removes the folder"
        )
        if let debugger { perform(debugger.start()) }
    }

    /// Starts the browser: its output into one pipe; Chromium's debugging pipe on its 3 and 4.
    private func spawn(_ plan: LaunchPlan) throws(RunError) {
        do {
            let out = try FileDescriptor.pipe()
            defer { out.write.close() }
            var descriptors: [FileDescriptor?] = [nil, out.write, out.write]
            var commands: (read: FileDescriptor, write: FileDescriptor)?
            var events: (read: FileDescriptor, write: FileDescriptor)?
            if plan.browser == .chromium {
                commands = try FileDescriptor.pipe()
                events = try FileDescriptor.pipe()
                descriptors += [commands?.read, events?.write]
            }
            defer {
                commands?.read.close()
                events?.write.close()
            }
            browserOutput = out.read
            out.read.setNonBlocking(true)
            browserProcess = try ChildProcess.spawn(
                plan.executable, arguments: plan.arguments, environment: plan.environment, workingDirectory: nil,
                descriptors: descriptors)
            if let commands, let events {
                connection = DebuggerConnection(chromiumInput: events.read, output: commands.write)
            }
        } catch {
            throw .browserFailed("could not be started: \(error)", output: [])
        }
    }

    /// Waits for Firefox's debugging server's socket, then connects.
    private func connectFirefox(_ folder: RunFolder) throws(RunError) -> DebuggerConnection? {
        let deadline = clock.milliseconds + 90_000
        while clock.milliseconds < deadline {
            if Signals.terminationRequested { return nil }
            readBrowserOutput()
            if let status = browserProcess?.reap() {
                throw .browserFailed(
                    "exited (status \(status)) before its debugging server started", output: browserLines.tail)
            }
            if Platform.exists(folder.devToolsSocket),
                let socket = try? LocalSocket.connectStream(folder.devToolsSocket)
            {
                return DebuggerConnection(firefoxSocket: socket)
            }
            Platform.sleep(milliseconds: 50)
        }
        throw .browserFailed("did not start its debugging server within 90 s", output: browserLines.tail)
    }

    /// The group container as the user has it: the host must not look under the browser's HOME.
    private func container() -> String {
        if let given = environment[EnvironmentVariable.container.name] { return given }
        if let found = try? GroupContainer(groupID: project.group, environment: Environment(environment)) {
            return found.path
        }
        emit(
            .problem(
                "cannot tell where group \(project.group)'s container is (is HOME set?): the host answers storage_error"
            ))
        return ""
    }

    private func xauthority() -> String? {
        guard environment["XAUTHORITY"] == nil, let home = environment["HOME"] else { return nil }
        return Platform.exists(home + "/.Xauthority") ? home + "/.Xauthority" : nil
    }

    /// A random (version 4) UUID, lower case.
    static func randomUUID() -> String {
        var bytes = Platform.randomBytes(16)
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = FileSystem.hex(bytes)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }
        return parts.joined(separator: "-")
    }

    // MARK: Stopping

    /// Stops the build, the browser and the hosts, and removes the folder.
    func cleanUp() {
        build?.stop()
        build = nil
        if let debugger, let connection, !connection.closed { perform(debugger.close()) }
        if let browserProcess {
            // Chromium was asked to close; Firefox quits on SIGTERM. Then whatever is left of the group goes.
            if options.browser == .chromium { browserProcess.wait(timeoutMilliseconds: 3000) }
            browserProcess.terminate(graceMilliseconds: 5000)
        }
        if endHosts() > 0 { Platform.sleep(milliseconds: 200) }
        connection?.close()
        connection = nil
        trace?.close()
        trace = nil
        browserOutput?.close()
        browserOutput = nil
        if let folder {
            if folder.remove() {
                status("stopped; removed \(folder.path)")
            } else {
                emit(.problem("could not remove \(folder.path); remove it by hand (rm -r)"))
            }
        }
        folder = nil
    }

    /// Sends SIGTERM to each host still running the copy in the private folder.
    /// - Returns: how many.
    @discardableResult
    func endHosts() -> Int {
        var ended = 0
        for pid in hostProcesses {
            guard let executable = Platform.executablePath(ofProcess: pid),
                executable == hostPath || executable == hostPath + " (deleted)"
            else {
                hostProcesses.remove(pid)
                continue
            }
            if Signals.send(.terminate, to: pid) { ended += 1 }
        }
        return ended
    }
}
