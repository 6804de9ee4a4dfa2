import BridgeJSON
import SharedSuite

/// `queue list | count | drain`.
struct QueueCommands {
    let context: CLIContext
    let queue: PendingQueue
    let json: Bool

    func list() throws(CLIError) {
        let entries = try suite { () throws(SuiteError) in
            try queue.entries(forURL: nil, excerptBytes: 0)
        }
        for entry in entries {
            switch entry {
            case .item(let item):
                if json {
                    var summary = item.json.objectValue ?? [:]
                    summary["content"] = nil
                    summary["contentBytes"] = .int(item.contentBytes)
                    try context.print(JSONWriter.string(.object(summary)))
                } else {
                    try context.print(
                        [item.id, item.savedAt.iso8601, item.kind, item.url, item.title ?? ""]
                            .map { DisplayText.escaped($0) }.joined(separator: "\t"))
                }
            case .unsupported(let id, let version):
                try context.print(
                    json
                        ? JSONWriter.string(["id": .string(id), "unsupportedFormatVersion": .int(version)])
                        : "\(DisplayText.escaped(id))\tformatVersion \(version): needs a newer extension-bridge")
            case .unreadable(let id, let reason):
                try context.print(
                    json
                        ? JSONWriter.string(["id": .string(id), "unreadable": .string(reason)])
                        : "\(DisplayText.escaped(id))\tunreadable: \(DisplayText.escaped(reason))")
            }
        }
    }

    func count() throws(CLIError) {
        let n = try suite { () throws(SuiteError) in try queue.count() }
        try context.print(json ? JSONWriter.string(["count": .int(n)]) : String(n))
    }

    /// Hands every readable item over, then removes it: a drain killed at any
    /// instant loses nothing (an item may be handed over again, never lost).
    /// Items of an unknown format or unreadable ones stay and are reported.
    func drain(keepDuplicates: Bool) throws(CLIError) {
        let ids = try suite { () throws(SuiteError) in try queue.ids() }
        var handedURLs = Set<String>()
        var imported = 0
        var skipped = 0
        var kept: [String] = []
        for id in ids {
            guard let entry = try suite({ () throws(SuiteError) in try queue.load(id: id, excerptBytes: nil) })
            else {
                continue  // drained by someone else meanwhile
            }
            switch entry {
            case .item(let item):
                if !keepDuplicates && handedURLs.contains(item.url) {
                    skipped += 1
                } else {
                    try handOver(item)
                    handedURLs.insert(item.url)
                    imported += 1
                }
                try suite { () throws(SuiteError) in try queue.remove(id: id) }
            case .unsupported(let id, let version):
                kept.append("\(id): formatVersion \(version) is newer than this extension-bridge reads; upgrade it")
            case .unreadable(let id, let reason):
                kept.append("\(id): \(reason)")
            }
        }
        var summary = "drained \(imported) item\(imported == 1 ? "" : "s")"
        if skipped > 0 {
            summary += ", skipped \(skipped) duplicate URL\(skipped == 1 ? "" : "s") (use --all to keep them)"
        }
        if !kept.isEmpty { summary += ", kept \(kept.count) that cannot be read:" }
        context.writeErr(summary)
        for line in kept { context.writeErr("  " + line) }
    }

    /// Prints one item; a missing title is handed over as the URL.
    private func handOver(_ item: QueueItem) throws(CLIError) {
        var item = item
        if item.title == nil { item.title = item.url }
        if json {
            try context.print(JSONWriter.string(item.json))
        } else {
            try context.print(QueueCommands.record(item))
        }
    }

    /// An item as `drain` prints it: a record starts with `# ` at the start
    /// of a line and only there. The one-line fields have their line breaks
    /// escaped and every content line is indented by four spaces, so no saved
    /// text can start a record of its own (docs/SUITE.md, "drain output").
    static func record(_ item: QueueItem) -> String {
        let content = item.content.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "    " + $0 }.joined(separator: "\n")
        return "# \(DisplayText.escaped(item.title ?? item.url))\n\(DisplayText.escaped(item.url))\n"
            + "\(item.kind) saved \(item.savedAt.iso8601) by \(DisplayText.escaped(item.source))\n\n\(content)\n"
    }
}
