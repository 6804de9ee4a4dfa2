import BridgeJSON
import BridgeSystem
import BrowserSupport
import SharedSuite

/// The one path by which `queue drain` and `queue watch` hand an item over
/// and remove it: under the queue's hand-over lock, load the item (it may
/// have gone meanwhile), give it to the reader or to CMD, and remove it only
/// when that worked. Every item is handed over once however many drains and
/// watchers run; an item whose hand-over failed stays.
struct QueueHandOver {
    /// Where an item goes.
    enum Delivery {
        /// Printed on stdout (JSON lines with `json`); removed once written.
        case print(json: Bool)
        /// Run `/bin/sh -c command` with the item's JSON line on stdin;
        /// removed only when it exits 0 within `timeoutMilliseconds`.
        case exec(command: String, timeoutMilliseconds: Int64)
    }

    /// What happened to one id.
    enum Outcome: Equatable {
        case handedOver
        /// An exact duplicate (same URL and content) of an item handed over
        /// earlier in the same round: removed without being handed over again.
        case collapsed
        /// Gone before it could be handed over (another drain, `queue remove`).
        case vanished
        /// Unreadable or of a newer format: kept, with the reason.
        case unreadable(String)
        /// CMD failed: kept, with the reason.
        case failed(String)
    }

    /// How long to wait for another drain or watch handing an item over.
    static let lockWaitMilliseconds: Int64 = 30_000

    /// One item as drain and watch hand it over (and CMD reads it on stdin):
    /// a JSON line, or a text block. A missing or empty title is handed over
    /// as the URL. Every hand-over record is made here.
    static func record(_ item: QueueItem, json: Bool) -> String {
        var item = item
        if item.title?.isEmpty ?? true { item.title = item.url }
        if json { return JSONWriter.string(item.json) }
        // A record starts with `# ` at the start of a line and only there: the
        // one-line fields have their line breaks escaped and every content line
        // is indented, so no saved text can start a record of its own
        // (docs/SUITE.md, "drain output").
        // "\r\n" is one Character to Swift, so it is named beside "\n": split on "\n"
        // alone, the line after a Windows line break would start unindented.
        let content = item.content.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
            .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
        return "# \(DisplayText.escaped(item.title ?? item.url))\n\(DisplayText.escaped(item.url))\n"
            + "\(item.kind) saved \(item.savedAt.iso8601) by \(DisplayText.escaped(item.source))\n\n\(content)\n"
    }

    let context: CLIContext
    let queue: PendingQueue
    let delivery: Delivery
    /// False with `--all`: exact duplicates are handed over too.
    let collapseDuplicates: Bool
    /// SHA-256 of URL, NUL, content of each item handed over in this round.
    /// A round is one listing of the queue: a whole drain, or one look of a
    /// watch. Cleared by `startRound()`, so a later, separate save of the
    /// same page is handed over, never collapsed into one a long-running
    /// watch handed over days ago.
    private var handed = Set<[UInt8]>()

    init(context: CLIContext, queue: PendingQueue, delivery: Delivery, collapseDuplicates: Bool) {
        self.context = context
        self.queue = queue
        self.delivery = delivery
        self.collapseDuplicates = collapseDuplicates
    }

    /// Starts a round: only items handed over from now on count as earlier
    /// copies for collapsing.
    mutating func startRound() { handed.removeAll(keepingCapacity: true) }

    /// Hands the item `id` over and removes it, or says why not: through
    /// SharedSuite's `PendingQueue.handOver`, the one path an app's drain takes
    /// too (its hand-over lock and the item's claim, so an undo from the
    /// extension cannot remove the item halfway).
    /// - Throws: when stdout cannot be written (the item stays), CMD cannot be
    ///   started, or the lock or queue fails.
    mutating func handOver(id: String) throws(CLIError) -> Outcome {
        var outcome = Outcome.handedOver
        var thrown: CLIError?
        let result = try suite { () throws(SuiteError) in
            try queue.handOver(id: id, timeoutMilliseconds: QueueHandOver.lockWaitMilliseconds) { item in
                do throws(CLIError) {
                    outcome = try deliver(item)
                } catch {
                    thrown = error
                    return false
                }
                return outcome == .handedOver || outcome == .collapsed
            }
        }
        if let thrown { throw thrown }
        switch result {
        case .handedOver, .kept: return outcome
        case .vanished: return .vanished
        case .unreadable(let reason): return .unreadable(reason)
        }
    }

    /// Gives `item` to the reader or to CMD: `.handedOver` or `.collapsed` when
    /// it may be removed, `.failed` when it stays.
    private mutating func deliver(_ item: QueueItem) throws(CLIError) -> Outcome {
        let key = SHA256.digest(Array(item.url.utf8) + [0] + Array(item.content.utf8))
        if collapseDuplicates && handed.contains(key) { return .collapsed }
        switch delivery {
        case .print(let json):
            try context.print(QueueHandOver.record(item, json: json), brokenPipe: .readerGone)
            // Into a pipe, "written" is not "read": the item goes only once
            // the reader has emptied the pipe of it, and stays when it left.
            if let awaitRead = context.awaitOutputRead {
                let result: FileDescriptor.PipeReadResult
                do {
                    result = try awaitRead()
                } catch {
                    throw CLIError(.io, "cannot tell whether the reader of standard output read \(item.id): \(error)")
                }
                if result == .interrupted {  // SIGTERM to a watch: stop, keeping the item
                    return .failed("stopped by a signal before the reader read it all; it stays queued")
                }
                if result == .readerGone {
                    throw CLIError(
                        .readerGone,
                        "the reader of standard output went away before reading all of \(item.id); it stays queued")
                }
            }
        case .exec(let command, let timeout):
            if let failure = try run(command, item: item, timeoutMilliseconds: timeout) { return .failed(failure) }
        }
        handed.insert(key)
        return .handedOver
    }

    /// Removes `id`; one removed meanwhile (`queue remove`, a hand-over) is not an error.
    static func remove(_ id: String, from queue: PendingQueue) throws(CLIError) {
        do throws(SuiteError) {
            try queue.remove(id: id)
        } catch {
            if case .io(let e) = error, e.isNotFound { return }
            throw CLIError(error)
        }
    }

    /// Runs CMD with the item on stdin; nil when it exited 0, else why not.
    private func run(_ command: String, item: QueueItem, timeoutMilliseconds: Int64) throws(CLIError) -> String? {
        let input = Array((QueueHandOver.record(item, json: true) + "\n").utf8)
        let context = self.context
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(
                "/bin/sh", arguments: ["-c", command], environment: nil, workingDirectory: nil, input: input,
                timeoutMilliseconds: timeoutMilliseconds, ownProcessGroup: true,
                forward: { fromStandardError, bytes in
                    if fromStandardError {
                        var text = String(decoding: bytes, as: UTF8.self)
                        if text.hasSuffix("\n") { text.removeLast() }
                        context.writeErr(text)
                    } else {
                        // Exact into a pipe or a file; escaped like every other
                        // output on a terminal (`out`), so a title CMD prints
                        // cannot drive it.
                        try? context.out(Array(bytes))
                    }
                })
        } catch {
            throw CLIError(.unavailable, "cannot run /bin/sh for --exec: \(error)")
        }
        if result.timedOut { return "CMD did not finish within \(timeoutMilliseconds / 1000) s and was killed" }
        if result.status > 128 { return "CMD was killed by signal \(result.status - 128)" }
        if result.status != 0 { return "CMD exited \(result.status)" }
        return nil
    }
}
