import BridgeJSON
import BridgeSystem
import SharedSuite

/// `queue list | count | drain | watch | remove`.
struct QueueCommands {
    let context: CLIContext
    let queue: PendingQueue
    let json: Bool

    /// How often `watch` looks at the queue even without a notification (a
    /// retry after a lock timeout; the bound on noticing a signal).
    static let watchLookMilliseconds: Int32 = 1000

    func list() throws(CLIError) {
        let entries = try suite { () throws(SuiteError) in
            try queue.entries(forURL: nil, excerptBytes: 0)
        }
        for entry in entries { try context.print(QueueCommands.listRecord(entry, json: json)) }
    }

    /// One line of `queue list`: the record of an item (without its content),
    /// or of an entry that cannot be read. Every list line is made here.
    static func listRecord(_ entry: QueueEntry, json: Bool) -> String {
        switch entry {
        case .item(let item):
            if json {
                var summary = item.json.objectValue ?? [:]
                summary["content"] = nil
                summary["contentBytes"] = .int(item.contentBytes)
                return JSONWriter.string(.object(summary))
            }
            // Each field escaped whole (tabs and line breaks too): one item, one line.
            return [item.id, item.savedAt.iso8601, item.kind, item.url, item.title ?? ""]
                .map { DisplayText.escaped($0) }.joined(separator: "\t")
        case .unsupported(let id, let version):
            return json
                ? JSONWriter.string(["id": .string(id), "unsupportedFormatVersion": .int(version)])
                : "\(DisplayText.escaped(id))\tformatVersion \(version): needs a newer extension-bridge"
        case .unreadable(let id, let reason):
            return json
                ? JSONWriter.string(["id": .string(id), "unreadable": .string(reason)])
                : "\(DisplayText.escaped(id))\tunreadable: \(DisplayText.escaped(reason))"
        }
    }

    func count() throws(CLIError) {
        let n = try suite { () throws(SuiteError) in try queue.count() }
        try context.print(json ? JSONWriter.string(["count": .int(n)]) : String(n))
    }

    /// Hands every readable item over, removing each only once it is handed
    /// over (written whole to stdout, or CMD exited 0): a drain killed at any
    /// instant loses nothing. Stops at the first write error. Exact duplicates
    /// (same URL and content) among the items waiting when it started are
    /// collapsed unless `keepDuplicates`. Items of
    /// an unknown format, unreadable ones and those CMD failed on stay and are
    /// reported.
    /// With `--exec`, SIGINT or SIGTERM stops the drain between items (CMD,
    /// if running, gets SIGTERM and its item stays).
    /// Into a pipe, an item is removed only once the reader has read it out
    /// of the pipe; a reader that goes away stops the drain.
    /// - Returns: 0; 130 when a signal stopped the drain, else 123 when CMD
    ///   failed for some item (what was not handed over stays: try again); 141
    ///   when the reader of standard output went away (what it did not read stays).
    func drain(keepDuplicates: Bool, delivery: QueueHandOver.Delivery) throws(CLIError) -> Int32 {
        var stoppable = false
        if case .exec = delivery {
            stoppable = true
            Signals.requestTermination(on: [.interrupt, .terminate])
        }
        let ids = try suite { () throws(SuiteError) in try queue.ids() }
        var handOver = QueueHandOver(
            context: context, queue: queue, delivery: delivery, collapseDuplicates: !keepDuplicates)
        var imported = 0
        var collapsed = 0
        var unreadable: [String] = []
        var failed: [String] = []
        var stopped = false
        var readerGone: CLIError?
        for id in ids {
            if stoppable && Signals.terminationRequested {
                stopped = true
                break
            }
            let outcome: QueueHandOver.Outcome
            do {
                outcome = try handOver.handOver(id: id)
            } catch {
                guard error.kind == .readerGone else { throw error }
                readerGone = error
                break
            }
            switch outcome {
            case .handedOver: imported += 1
            case .collapsed: collapsed += 1
            case .vanished: continue
            case .unreadable(let reason): unreadable.append("\(id): \(reason)")
            case .failed(let reason): failed.append("\(id): \(reason)")
            }
        }
        var summary = "drained \(imported) item\(imported == 1 ? "" : "s")"
        if collapsed > 0 {
            summary +=
                ", collapsed \(collapsed) exact duplicate\(collapsed == 1 ? "" : "s") (same URL and content; --all keeps them)"
        }
        if !failed.isEmpty { summary += ", kept \(failed.count) that CMD did not take" }
        if !unreadable.isEmpty { summary += ", kept \(unreadable.count) that cannot be read" }
        if stopped { summary += ", stopped by a signal (the rest stays queued)" }
        if readerGone != nil { summary += ", stopped: the reader went away (what it did not read stays queued)" }
        if !failed.isEmpty || !unreadable.isEmpty { summary += ":" }
        if let readerGone { context.writeErr(readerGone.message) }
        context.writeErr(summary)
        for line in failed + unreadable { context.writeErr("  " + line) }
        if !unreadable.isEmpty {
            context.writeErr("  (`extension-bridge queue remove ID` deletes one that cannot be read)")
        }
        if readerGone != nil { return CLIError.Kind.readerGone.rawValue }
        if stopped { return CLIError.Kind.interrupted.rawValue }
        return failed.isEmpty ? 0 : CLIError.Kind.commandFailed.rawValue
    }

    /// Hands over what waits, then each item as it arrives, until SIGINT or
    /// SIGTERM. An item CMD fails on stays and is not tried again by this run.
    /// - Parameter notifications: false looks on a timer instead of inotify.
    func watch(keepDuplicates: Bool, delivery: QueueHandOver.Delivery, notifications: Bool) throws(CLIError) {
        Signals.requestTermination(on: [.interrupt, .terminate])
        let watcher = QueueWatcher(container: queue.container, notifications: notifications)
        var handOver = QueueHandOver(
            context: context, queue: queue, delivery: delivery, collapseDuplicates: !keepDuplicates)
        var passed = Set<String>()  // ids kept for a reason a retry in this run would not change
        context.writeErr(
            "watching \(queue.container.queuePath) "
                + (watcher.usesNotifications
                    ? "(inotify)" : "(looking every \(watcher.fallbackIntervalMilliseconds) ms)")
                + "; stop with Ctrl-C or SIGTERM")
        while !Signals.terminationRequested {
            let ids = try suite { () throws(SuiteError) in try queue.ids() }
            // Duplicates collapse within one look at the queue (items waiting
            // together), never across looks: the watch runs for weeks.
            handOver.startRound()
            for id in ids where !passed.contains(id) {
                if Signals.terminationRequested { break }
                let outcome: QueueHandOver.Outcome
                do {
                    outcome = try handOver.handOver(id: id)
                } catch {
                    if error.kind == .lockTimeout {  // another drain holds it: look again later
                        context.writeErr("\(id): \(error.message)")
                        break
                    }
                    throw error
                }
                switch outcome {
                case .handedOver, .vanished: continue
                case .collapsed:
                    context.writeErr("\(id): collapsed, an exact duplicate of an item handed over in the same look")
                case .unreadable(let reason):
                    passed.insert(id)
                    context.writeErr("\(id): kept, cannot be read: \(reason)")
                case .failed(let reason):
                    passed.insert(id)
                    context.writeErr("\(id): kept, \(reason); drain or restart the watch to try again")
                }
            }
            _ = watcher.wait(timeoutMilliseconds: QueueCommands.watchLookMilliseconds)
        }
        context.writeErr("stopped")
    }

    /// Removes items by id (as `queue list` shows them), readable or not.
    /// Removes none when any id is not in the queue. At least one: the parser's (`ID…`).
    func remove(_ ids: [String]) throws(CLIError) {
        let waiting = Set(try suite { () throws(SuiteError) in try queue.ids() })
        let missing = ids.filter { !waiting.contains($0) }
        if !missing.isEmpty {
            throw CLIError(
                .missing,
                "no queued item \(missing.joined(separator: ", ")); `extension-bridge queue list` shows the ids (nothing removed)"
            )
        }
        let lock = try suite { () throws(SuiteError) in
            try queue.lockForHandOver(timeoutMilliseconds: QueueHandOver.lockWaitMilliseconds)
        }
        defer { lock.release() }
        // Under the lock again: a drain or watch may have handed some over
        // while this waited for it. Then nothing is removed, and it says so.
        let still = Set(try suite { () throws(SuiteError) in try queue.ids() })
        let taken = ids.filter { !still.contains($0) }
        if !taken.isEmpty {
            throw CLIError(
                .missing,
                "\(taken.joined(separator: ", ")) left the queue while this waited for the hand-over lock: "
                    + "handed over (queue drain or watch) or removed (nothing removed)")
        }
        for id in ids {
            try QueueHandOver.remove(id, from: queue)
            if !json { context.writeErr("removed \(id)") }
        }
        if json { try context.print(JSONWriter.string(["removed": .array(ids.map(JSONValue.string))])) }
    }
}
