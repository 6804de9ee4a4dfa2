import BridgeJSON
import BridgeSystem

/// The queue between the extension (through the host) and the CLI: "the
/// extension queues, the main app drains".
public protocol PendingQueueing: AnyObject {
    /// Appends an item and returns it with its new id.
    func append(url: String, title: String?, content: String, source: String) throws(SuiteError) -> QueueItem
    /// Entries oldest first; only those saved for `url` when it is given.
    /// - Parameters:
    ///   - url: only items saved for this URL; nil for every item.
    ///   - excerptBytes: nil loads whole contents; otherwise at most that
    ///     many UTF-8 bytes of each (an excerpt, cut between characters).
    func entries(forURL url: String?, excerptBytes: Int?) throws(SuiteError) -> [QueueEntry]
    /// How many entries are waiting.
    func count() throws(SuiteError) -> Int
    /// Removes one entry and its content file.
    func remove(id: String) throws(SuiteError)
}

/// The file-backed queue: one JSON file per item in `queue/`.
///
/// An item is written to `queue/.incoming/`, synced, and linked into `queue/`
/// under its final name, so a reader never sees half an item and many host
/// processes can append at once without a global lock. Content over
/// `QueueLimits.inlineBytes` goes to the shared file `content-<id>.txt`,
/// written before the item that names it. Names are
/// `<milliseconds>-<FNV-1a of the URL>-<random>.json`: listing the folder
/// gives the time order and which items belong to a URL without opening them.
public final class PendingQueue: PendingQueueing {
    public let container: GroupContainer
    public let limits: QueueLimits
    private let clock: () -> WallTime
    private var files: SharedFiles { SharedFiles(container: container) }

    public init(
        container: GroupContainer, limits: QueueLimits = QueueLimits(), clock: @escaping () -> WallTime = WallTime.now
    ) {
        self.container = container
        self.limits = limits
        self.clock = clock
    }

    /// The hash that names a URL's items.
    public static func urlHash(_ url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in url.utf8 {
            hash ^= UInt64(b)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let text = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }

    static func contentFileName(_ id: String) -> String { "content-\(id).txt" }

    public func append(url: String, title: String?, content: String, source: String) throws(SuiteError) -> QueueItem {
        let size = content.utf8.count
        if size > limits.maxItemBytes { throw .contentTooLarge(size: size, limit: limits.maxItemBytes) }
        let (items, bytes) = try usage()
        if items + 1 > limits.maxItems || bytes + size > limits.maxBytes {
            throw .queueFull(items: items, bytes: bytes, maxItems: limits.maxItems, maxBytes: limits.maxBytes)
        }
        let now = clock()
        let ms = String(now.milliseconds)
        let id =
            String(repeating: "0", count: max(0, 13 - ms.count)) + ms + "-" + PendingQueue.urlHash(url) + "-"
            + FileSystem.hex(Platform.randomBytes(4))
        let item = QueueItem(
            id: id, url: url, title: title, content: content, contentBytes: size, savedAt: now, source: source)
        var stored = item.json.objectValue ?? [:]
        var contentFile: String?
        if size > limits.inlineBytes {
            let name = PendingQueue.contentFileName(id)
            try files.write(name, utf8: content)
            contentFile = name
            stored["content"] = nil
            stored["contentFile"] = .string(name)
            stored["contentBytes"] = .int(size)
        }
        do throws(SuiteError) {
            guard let queue = try container.folder(PendingQueue.folderName, create: true) else {
                throw .notFound("the queue folder")
            }
            var bytes = JSONWriter.bytes(.object(stored))
            bytes.append(UInt8(ascii: "\n"))
            let name = id + ".json"
            try SuiteError.wrap { () throws(SystemError) in
                let incoming = try queue.subdirectory(PendingQueue.incomingName, create: true)
                try incoming.writeAtomically(name, bytes, permissions: 0o600, exclusive: true)
                try incoming.move(name, to: name, in: queue)
                try queue.sync()
            }
        } catch {
            if let contentFile { try? files.delete(contentFile) }
            throw error
        }
        return item
    }

    static let folderName = "queue"
    static let incomingName = ".incoming"

    /// `queue/`, open and never a link; nil when it does not exist yet.
    private func folder() throws(SuiteError) -> Directory? {
        try container.folder(PendingQueue.folderName)
    }

    /// Item ids in the queue, oldest first.
    public func ids() throws(SuiteError) -> [String] {
        guard let queue = try folder() else { return [] }
        let names = try SuiteError.wrap { () throws(SystemError) in try queue.list() }
        return names.filter { !$0.hasPrefix(".") && $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    public func count() throws(SuiteError) -> Int { try ids().count }

    public func entries(forURL url: String?, excerptBytes: Int?) throws(SuiteError) -> [QueueEntry] {
        var ids = try ids()
        if let url {
            let hash = "-" + PendingQueue.urlHash(url) + "-"
            ids = ids.filter { $0.contains(hash) }
        }
        var out: [QueueEntry] = []
        for id in ids {
            guard let entry = try load(id: id, excerptBytes: excerptBytes) else { continue }
            if let url, case .item(let item) = entry, item.url != url { continue }
            out.append(entry)
        }
        return out
    }

    /// Loads one entry; nil when it vanished (drained by another process).
    public func load(id: String, excerptBytes: Int?) throws(SuiteError) -> QueueEntry? {
        guard let queue = try folder() else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try queue.readFile(id + ".json").bytes
        } catch {
            if error.isNotFound { return nil }
            return .unreadable(id: id, reason: error.description)
        }
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            return .unreadable(id: id, reason: "not JSON (\(error))")
        }
        guard let version = json["formatVersion"]?.intValue else {
            return .unreadable(id: id, reason: "formatVersion is missing")
        }
        if version != QueueItem.formatVersion { return .unsupported(id: id, formatVersion: version) }
        guard let url = json["url"]?.stringValue else { return .unreadable(id: id, reason: "url is missing") }
        guard let savedText = json["savedAt"]?.stringValue, let savedAt = WallTime(iso8601: savedText) else {
            return .unreadable(id: id, reason: "savedAt is missing or not a date")
        }
        let title = json["title"]?.stringValue
        let source = json["source"]?.stringValue ?? ""
        var content: String
        var contentBytes: Int
        if let inline = json["content"]?.stringValue {
            content = inline
            contentBytes = inline.utf8.count
        } else if let name = json["contentFile"]?.stringValue {
            contentBytes = json["contentBytes"]?.intValue ?? 0
            do {
                content = String(decoding: try files.read(name, limit: excerptBytes ?? Int.max), as: UTF8.self)
                if excerptBytes != nil { content = PendingQueue.trimCutCharacter(content) }
            } catch {
                return .unreadable(id: id, reason: "content file: \(error)")
            }
        } else {
            return .unreadable(id: id, reason: "content is missing")
        }
        if let excerptBytes { content = content.prefix(utf8Bytes: excerptBytes) }
        return .item(
            QueueItem(
                id: id, url: url, title: title, content: content, contentBytes: contentBytes, savedAt: savedAt,
                source: source))
    }

    /// Removes the item first, then its content file: a crash between the two
    /// leaves an orphan content file, never an item without its content.
    public func remove(id: String) throws(SuiteError) {
        guard let queue = try folder() else { return }
        try SuiteError.wrap { () throws(SystemError) in
            try queue.remove(id + ".json")
            try queue.sync()
        }
        do throws(SuiteError) {
            try files.delete(PendingQueue.contentFileName(id))
        } catch {
            if case .notFound = error { return }
            throw error
        }
    }

    /// How old a temporary file must be to count as left by a crash: far
    /// longer than writing 64 MiB takes.
    public static let staleTemporarySeconds: Int64 = 600

    /// Items and bytes waiting (items, content files, and temporary files a
    /// writer may still be filling). Temporaries older than
    /// `staleTemporarySeconds` — left by a crash, a kill or a file-size
    /// limit — are removed here, so they neither stay forever nor fill the quota.
    public func usage() throws(SuiteError) -> (items: Int, bytes: Int) {
        let ids = try ids()
        guard let queue = try folder() else { return (0, 0) }
        let shared = try container.folder(SharedFiles.folderName)
        var bytes = Int(shared?.sweep(staleAfterSeconds: PendingQueue.staleTemporarySeconds) ?? 0)
        if let incoming = try? queue.subdirectory(PendingQueue.incomingName) {
            let everything = (try? incoming.list()) ?? []  // in .incoming, every file is unfinished
            bytes += Int(incoming.sweep(everything, staleAfterSeconds: PendingQueue.staleTemporarySeconds))
        }
        for id in ids {
            if let info = try? queue.status(id + ".json") { bytes += Int(info.size) }
            if let info = try? shared?.status(PendingQueue.contentFileName(id)) { bytes += Int(info.size) }
        }
        return (ids.count, bytes)
    }

    /// Drops a U+FFFD left by cutting a UTF-8 sequence at a byte limit.
    static func trimCutCharacter(_ text: String) -> String {
        var text = text
        while text.hasSuffix("\u{FFFD}") { text.removeLast() }
        return text
    }
}
