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
    ///   - contentCharacters: nil loads whole contents; otherwise at most
    ///     that many characters of each (an excerpt).
    func entries(forURL url: String?, contentCharacters: Int?) throws(SuiteError) -> [QueueEntry]
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
            try container.createFolder(container.queuePath)
            try container.createFolder(container.incomingPath)
            var bytes = JSONWriter.bytes(.object(stored))
            bytes.append(UInt8(ascii: "\n"))
            let incoming = container.incomingPath + "/" + id + ".json"
            try SuiteError.wrap { () throws(SystemError) in
                try FileSystem.writeAtomically(incoming, bytes, permissions: 0o600, exclusive: true)
                try FileSystem.move(incoming, container.queuePath + "/" + id + ".json")
                try FileSystem.syncDirectory(container.queuePath)
            }
        } catch {
            if let contentFile { try? files.delete(contentFile) }
            throw error
        }
        return item
    }

    /// Item ids in the queue, oldest first.
    public func ids() throws(SuiteError) -> [String] {
        let names: [String]
        do {
            names = try FileSystem.listDirectory(container.queuePath)
        } catch {
            if error.isNotFound { return [] }
            throw .io(error)
        }
        return names.filter { !$0.hasPrefix(".") && $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    public func count() throws(SuiteError) -> Int { try ids().count }

    public func entries(forURL url: String?, contentCharacters: Int?) throws(SuiteError) -> [QueueEntry] {
        var ids = try ids()
        if let url {
            let hash = "-" + PendingQueue.urlHash(url) + "-"
            ids = ids.filter { $0.contains(hash) }
        }
        var out: [QueueEntry] = []
        for id in ids {
            guard let entry = try load(id: id, contentCharacters: contentCharacters) else { continue }
            if let url, case .item(let item) = entry, item.url != url { continue }
            out.append(entry)
        }
        return out
    }

    /// Loads one entry; nil when it vanished (drained by another process).
    public func load(id: String, contentCharacters: Int?) throws(SuiteError) -> QueueEntry? {
        let path = container.queuePath + "/" + id + ".json"
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path, noFollow: true)
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
                // An excerpt needs at most 4 bytes per character.
                let limit = contentCharacters.map { $0 * 4 } ?? Int.max
                content = String(decoding: try files.read(name, limit: limit), as: UTF8.self)
                if contentCharacters != nil { content = PendingQueue.trimCutCharacter(content) }
            } catch {
                return .unreadable(id: id, reason: "content file: \(error)")
            }
        } else {
            return .unreadable(id: id, reason: "content is missing")
        }
        if let n = contentCharacters, content.count > n { content = String(content.prefix(n)) }
        return .item(
            QueueItem(
                id: id, url: url, title: title, content: content, contentBytes: contentBytes, savedAt: savedAt,
                source: source))
    }

    /// Removes the item first, then its content file: a crash between the two
    /// leaves an orphan content file, never an item without its content.
    public func remove(id: String) throws(SuiteError) {
        let path = container.queuePath + "/" + id + ".json"
        try SuiteError.wrap { () throws(SystemError) in
            try FileSystem.remove(path)
            try FileSystem.syncDirectory(container.queuePath)
        }
        do throws(SuiteError) {
            try files.delete(PendingQueue.contentFileName(id))
        } catch {
            if case .notFound = error { return }
            throw error
        }
    }

    /// `queue/.handover.lock`: held by whoever hands one item over (drain,
    /// watch), from loading it to removing it, so every item is handed over
    /// once however many drains and watchers run.
    public var handOverLockPath: String { container.queuePath + "/.handover.lock" }

    /// Takes the hand-over lock, waiting at most `timeoutMilliseconds`.
    /// - Throws: `.lockTimeout` when another hand-over kept it that long.
    public func lockForHandOver(timeoutMilliseconds: Int64) throws(SuiteError) -> FileLock {
        try container.createFolder(container.queuePath)
        do {
            return try FileLock.acquire(handOverLockPath, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            switch error {
            case .timedOut:
                throw .lockTimeout(path: handOverLockPath, seconds: Double(timeoutMilliseconds) / 1000)
            case .system(let e): throw .io(e)
            }
        }
    }

    /// Items and bytes waiting (items and content files).
    public func usage() throws(SuiteError) -> (items: Int, bytes: Int) {
        let ids = try ids()
        var bytes = 0
        for id in ids {
            for path in [
                container.queuePath + "/" + id + ".json", container.filesPath + "/" + PendingQueue.contentFileName(id),
            ] {
                if let info = try? FileSystem.status(path) { bytes += Int(info.size) }
            }
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
