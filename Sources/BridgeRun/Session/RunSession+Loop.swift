import BridgeProtocol
import BridgeSystem

extension RunSession {
    /// How often the sources are looked at, and how long the extension's files must be
    /// still before it is reloaded (an editor writes a file in several steps).
    static let scanMilliseconds: Int64 = 300
    static let quietMilliseconds: Int64 = 200
    /// How long to wait for the extension before opening `--url` anyway (an extension
    /// without a background gives no sign).
    static let readyMilliseconds: Int64 = 15_000

    /// Serves until a signal or the browser's end.
    /// - Returns: the exit status.
    func loop() -> Int32 {
        var lastScan = clock.milliseconds
        var datagram = [UInt8](repeating: 0, count: TraceRecord.maxBodyBytes + 4096)
        while true {
            if Signals.terminationRequested {
                status("stopping")
                return 0
            }
            if loadFailure != nil { return 1 }
            if let exit = browserProcess?.reap() { return browserEnded(exit) }
            var waitOn: [FileDescriptor] = []
            if let trace { waitOn.append(trace) }
            if let connection, !connection.closed { waitOn.append(connection.input) }
            if let browserOutput { waitOn.append(browserOutput) }
            if let build { waitOn.append(build.output) }
            _ = try? FileDescriptor.waitForInput(waitOn, timeoutMilliseconds: 100)
            readTrace(into: &datagram)
            readDebugger()
            readBrowserOutput()
            checkBuild()
            let now = clock.milliseconds
            if let url = pendingURL, ready || now - startedAt >= RunSession.readyMilliseconds {
                pendingURL = nil
                status("opening \(url)")
                if let debugger { perform(debugger.open(url: url)) }
            }
            if now - lastScan >= RunSession.scanMilliseconds {
                lastScan = now
                scanSources(now: now)
            }
            if !changedExtensionFiles.isEmpty && now - lastExtensionChange >= RunSession.quietMilliseconds {
                reloadExtension()
            }
        }
    }

    private func browserEnded(_ exit: Int32) -> Int32 {
        readBrowserOutput()
        _ = browserLines.finish()
        if exit == 0 {
            status("the browser closed")
            return 0
        }
        emit(.problem("the browser ended with exit status \(exit)"))
        for line in browserLines.tail.suffix(15) { emit(.problem("  " + line)) }
        return 1
    }

    // MARK: Reading

    private func readTrace(into datagram: inout [UInt8]) {
        guard let trace else { return }
        while case .bytes(let bytes) = trace.readAvailable(into: &datagram) {
            guard let record = TraceRecord.decode(bytes) else { continue }
            switch record.kind {
            case .start: hostProcesses.insert(record.processID)
            case .end: hostProcesses.remove(record.processID)
            default: break
            }
            emit(.host(record))
        }
    }

    private func readDebugger() {
        guard let connection, !connection.closed, let debugger else { return }
        for message in connection.receive() { perform(debugger.handle(message)) }
        if connection.closed, let failure = connection.failure {
            emit(.problem("the browser's debugging connection broke: \(failure)"))
        }
    }

    func readBrowserOutput() {
        guard let browserOutput else { return }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            switch browserOutput.readAvailable(into: &buffer) {
            case .bytes(let bytes):
                // Kept for when it fails; a person debugging the browser itself starts it by hand.
                for line in browserLines.add(bytes) { noticeLoadError(line) }
            case .nothing: return
            case .end:
                browserOutput.close()
                self.browserOutput = nil
                return
            }
        }
    }

    /// Chromium's report that the extension it was started with did not load: nothing else will come
    /// (no worker, no page of ours), so the run ends with the browser's reason.
    private func noticeLoadError(_ line: String) {
        guard options.browser == .chromium, !reloadRequested, loadFailure == nil else { return }
        let folder = project.extensionFolder(for: .chromium)
        guard let reason = ChromiumLog.loadError(in: line, extensionFolder: folder) else { return }
        loadFailure = .extensionNotLoaded(.chromium, folder: folder, reason: reason)
    }

    func perform(_ effects: [DebuggerEffect]) {
        for effect in effects {
            switch effect {
            case .send(let message): connection?.send(message)
            case .console(let message): emit(.console(message))
            case .ready:
                ready = true
                status("the extension is loaded")
            case .reloaded(let pages):
                status(
                    "reloaded the extension" + (pages == 0 ? "" : pages == 1 ? " and 1 page" : " and \(pages) pages"))
            case .problem(let text): emit(.problem(text))
            }
        }
    }

    // MARK: Edits

    private func scanSources(now: Int64) {
        let extensionNow = SourceTree.scan(project.extensionSources)
        let changed = extensionNow.changes(since: extensionTree)
        if !changed.isEmpty {
            extensionTree = extensionNow
            changedExtensionFiles += changed.filter { !changedExtensionFiles.contains($0) }
            lastExtensionChange = now
        }
        let hostNow = SourceTree.scan(project.hostSources)
        if hostNow != hostTree {
            let edited = hostNow.changes(since: hostTree)
            hostTree = hostNow
            if build == nil { startBuild(because: edited) }
        }
    }

    private func reloadExtension() {
        let files = changedExtensionFiles
        changedExtensionFiles = []
        reloadRequested = true
        status("\(RunSession.list(files)) changed: reloading the extension")
        if let debugger { perform(debugger.reloadExtension()) }
    }

    private func startBuild(because edited: [String]) {
        status(
            "\(RunSession.list(edited)) changed: rebuilding the host (\((try? builder.commandLine()) ?? "swift build"))"
        )
        if let refusal = project.untrustedFile() {
            emit(.problem(RunError.untrusted(refusal).description))
            return
        }
        do {
            build = try BuildJob(builder: builder, sources: hostTree)
        } catch {
            emit(.problem(error.description))
        }
    }

    /// When a rebuild has ended: the new host put in place and the running ones ended, or
    /// the errors shown and the old host kept. Builds again if the sources changed meanwhile.
    private func checkBuild() {
        guard let job = build, let exit = job.finished() else { return }
        build = nil
        let seconds = Double(clock.milliseconds - job.startedMilliseconds) / 1000
        let took = "\(Int(seconds)).\(Int(seconds * 10) % 10) s"
        if exit == 0 {
            do {
                if let refusal = project.untrustedFile(builtHost: builtHostPath) { throw RunError.untrusted(refusal) }
                try HostBuilder.install(builtHostPath, at: hostPath)
                let ended = endHosts()
                status(
                    "rebuilt the host in \(took)"
                        + (ended == 0
                            ? "; the next message starts it"
                            : "; ended \(ended) running host\(ended == 1 ? "" : "s"): the next message starts the new one")
                )
            } catch {
                emit(.problem("rebuilt, but could not put the new host in place: \(error)"))
            }
        } else {
            for line in job.errorLines { emit(.build(line)) }
            emit(
                .problem(
                    "the host's build failed (exit \(exit)) after \(took): the host that was running keeps serving"))
        }
        if hostTree != job.sources { startBuild(because: hostTree.changes(since: job.sources)) }
    }

    /// `a.js`, `a.js and b.js`, `a.js and 3 more files`.
    static func list(_ files: [String]) -> String {
        switch files.count {
        case 0: return "nothing"
        case 1: return files[0]
        case 2: return "\(files[0]) and \(files[1])"
        default: return "\(files[0]) and \(files.count - 1) more files"
        }
    }
}
