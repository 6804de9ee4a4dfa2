import BridgeJSON
import BridgeSystem

/// The file-backed queue: one JSON file per item in `queue/`.
///
/// An item is written to `queue/.incoming/`, synced, and linked into `queue/`
/// under its final name, so a reader never sees half an item and many host
/// processes can append at once without a global lock. Content over
/// `QueueLimits.inlineBytes` goes to the shared file `content-<id>.txt`,
/// written before the item that names it. Names are
/// `<milliseconds>-<FNV-1a of the URL>-<random>.json`: listing the folder
/// gives the time order and which items belong to a URL without opening them.
///
/// Idempotency keys (a resent `saveContent`, the same selection saved twice)
/// are claimed without a lock too: after its item is in place, an append
/// links `queue/.keys/<FNV-1a of source and key>.json`, naming the item,
/// with `link`, which fails when the name exists. Of two hosts appending the
/// same key at once, exactly one link succeeds; the other removes its own
/// item and answers the winner's. The key is claimed after the item is
/// written, so a crash in between leaves at worst a duplicate, never a key
/// that names an item that was not saved. A key is remembered for
/// `QueueLimits.keyWindowSeconds` after its item was saved, but only while
/// that item is waiting: once the app drained it or it was removed, the
/// same key queues a new item (a save that added nothing after a drain
/// would lose the user's save; the price is that a resend racing a drain
/// may give the app the same page twice). `withdraw` (undo) forgets the key at once,
/// and each new claim removes the claims older than the window.
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

    public func append(_ new: NewQueueItem) throws(SuiteError) -> AppendResult {
        if let key = new.key, let earlier = try remembered(key: key, for: new) {
            return AppendResult(item: earlier, duplicate: true)
        }
        let item = try write(new)
        guard let key = new.key else { return AppendResult(item: item, duplicate: false) }
        // The item is saved: from here on nothing may turn this into an error
        // reply. A claim that cannot be written leaves the key unremembered
        // (a resend may then add a second item, never lose one).
        guard let winner = try? claim(key: key, for: item) else { return AppendResult(item: item, duplicate: false) }
        // Another host queued the same key first: this copy goes (if it cannot,
        // it stays as a duplicate).
        try? remove(id: item.id)
        return AppendResult(item: winner, duplicate: true)
    }

    private func write(_ new: NewQueueItem) throws(SuiteError) -> QueueItem {
        let (url, title, content, source) = (new.url, new.title, new.content, new.source)
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
            id: id, url: url, title: title, content: content, contentBytes: size, savedAt: now, source: source,
            kind: new.kind.rawValue, pageURL: new.pageURL, key: new.key)
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

    // MARK: idempotency keys

    static let keysName = ".keys"

    private func keyName(_ key: String, source: String) -> String {
        PendingQueue.urlHash(source + "\u{0}" + key) + ".json"
    }

    /// `queue/.keys/`, open and never a link; nil when missing and not created.
    private func keysFolder(create: Bool) throws(SuiteError) -> Directory? {
        guard let queue = try container.folder(PendingQueue.folderName, create: create) else { return nil }
        do {
            return try queue.subdirectory(PendingQueue.keysName, create: create)
        } catch {
            if error.isNotFound { return nil }
            throw .io(error)
        }
    }

    /// The item a fresh claim of `key` by `new.source` names, if any. A
    /// claim older than the window is removed.
    private func remembered(key: String, for new: NewQueueItem) throws(SuiteError) -> QueueItem? {
        let name = keyName(key, source: new.source)
        // A keys folder that cannot be opened remembers nothing: the save goes ahead.
        guard let keys = (try? keysFolder(create: false)) ?? nil, let claim = readClaim(name, in: keys),
            claim.key == key,
            claim.source == new.source
        else { return nil }
        // A claim older than the window, or whose item is gone (drained by
        // the app, removed), is forgotten: the save goes ahead as a new item.
        if clock().seconds - claim.savedAt.seconds >= limits.keyWindowSeconds || !isWaiting(id: claim.id) {
            try SuiteError.wrap { () throws(SystemError) in try keys.remove(name) }
            return nil
        }
        return QueueItem(
            id: claim.id, url: new.url, title: new.title, content: new.content, savedAt: claim.savedAt,
            source: new.source, kind: new.kind.rawValue, pageURL: new.pageURL, key: key)
    }

    /// Claims `key` for `item`; returns the item of an earlier fresh claim
    /// that won, or nil when this one holds the key now. A name taken by a
    /// different key (a hash collision) leaves the item unclaimed.
    private func claim(key: String, for item: QueueItem) throws(SuiteError) -> QueueItem? {
        let name = keyName(key, source: item.source)
        var bytes = JSONWriter.bytes([
            "key": .string(key), "source": .string(item.source), "id": .string(item.id),
            "savedAt": .string(item.savedAt.iso8601),
        ])
        bytes.append(UInt8(ascii: "\n"))
        guard let keys = try keysFolder(create: true) else { return nil }
        do {
            try keys.writeAtomically(name, bytes, permissions: 0o600, exclusive: true)
            forgetStaleKeys(in: keys, now: item.savedAt)
            return nil
        } catch {
            guard error.code == Errno.exists else { throw .io(error) }
        }
        guard let other = readClaim(name, in: keys), other.key == key, other.source == item.source else { return nil }
        if item.savedAt.seconds - other.savedAt.seconds >= limits.keyWindowSeconds || !isWaiting(id: other.id) {
            try SuiteError.wrap { () throws(SystemError) in try keys.writeAtomically(name, bytes, permissions: 0o600) }
            return nil
        }
        var winner = item
        winner.id = other.id
        winner.savedAt = other.savedAt
        return winner
    }

    /// False when the item `id` is known to be gone (drained, removed); an
    /// item that cannot be read, or a queue that cannot be, counts as there.
    private func isWaiting(id: String) -> Bool {
        guard PendingQueue.isPlainID(id) else { return false }
        do {
            return try load(id: id, excerptBytes: 0) != nil
        } catch {
            return true
        }
    }

    /// Removes claims older than the window, so `queue/.keys` holds only
    /// the saves of the last window (saves are made by hand: a few files).
    private func forgetStaleKeys(in keys: Directory, now: WallTime) {
        for name in (try? keys.list()) ?? [] where !name.hasPrefix(".") && name.hasSuffix(".json") {
            if let claim = readClaim(name, in: keys), now.seconds - claim.savedAt.seconds >= limits.keyWindowSeconds {
                try? keys.remove(name)
            }
        }
    }

    private func readClaim(_ name: String, in keys: Directory) -> (
        key: String, source: String, id: String, savedAt: WallTime
    )? {
        guard let bytes = try? keys.readFile(name, limit: 4096).bytes,
            let json = try? JSONParser.parse(bytes), let key = json["key"]?.stringValue,
            let source = json["source"]?.stringValue, let id = json["id"]?.stringValue,
            let saved = json["savedAt"]?.stringValue, let savedAt = WallTime(iso8601: saved)
        else { return nil }
        return (key, source, id, savedAt)
    }

    /// Takes the item's claim first, as every hand-over does, so an undo
    /// never answers "removed" for an item a drain or watch is handing over.
    /// - Throws: `.itemBeingHandedOver` when a hand-over holds the claim.
    public func withdraw(id: String, source: String) throws(SuiteError) -> Bool {
        // Whose item it is comes first: another caller's id is simply not found.
        guard PendingQueue.isPlainID(id), case .item(let first)? = try load(id: id, excerptBytes: 0),
            first.source == source
        else { return false }
        let claim: FileLock
        do {
            claim = try self.claim(id: id, timeoutMilliseconds: 0)
        } catch {
            if case .lockTimeout = error { throw .itemBeingHandedOver(id: id) }
            throw error
        }
        defer { claim.release() }
        // Under the claim: still here (not handed over meanwhile)?
        guard case .item(let item)? = try load(id: id, excerptBytes: 0), item.source == source else { return false }
        do throws(SuiteError) {
            try remove(id: id)
        } catch {
            if case .io(let e) = error, e.isNotFound { return false }  // `queue remove` took it
            throw error
        }
        if let key = item.key, let keys = try keysFolder(create: false) {
            let name = keyName(key, source: source)
            if let claim = readClaim(name, in: keys), claim.id == id {
                try SuiteError.wrap { () throws(SystemError) in try keys.remove(name) }
            }
        }
        return true
    }

    /// An id as `append` makes them: digits, `-` and hex, no path characters.
    static func isPlainID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64
            && id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || $0 == 0x2D }
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
        let kind = json["kind"]?.stringValue ?? QueueItem.Kind.page.rawValue
        let pageURL = json["pageUrl"]?.stringValue
        let key = json["key"]?.stringValue
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
                source: source, kind: kind, pageURL: pageURL, key: key))
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

    /// `queue/.handover.lock`: held by whoever hands one item over (drain,
    /// watch), from loading it to removing it, so every item is handed over
    /// once however many drains and watchers run.
    public var handOverLockPath: String { container.queuePath + "/" + PendingQueue.handOverLockName }
    static let handOverLockName = ".handover.lock"

    /// Takes the hand-over lock, waiting at most `timeoutMilliseconds`.
    /// - Throws: `.lockTimeout` when another hand-over kept it that long.
    public func lockForHandOver(timeoutMilliseconds: Int64) throws(SuiteError) -> FileLock {
        guard let folder = try container.folder(PendingQueue.folderName, create: true) else {  // never a link
            throw .io(SystemError("open", container.queuePath, code: Errno.notFound))
        }
        do {
            return try FileLock.acquire(
                PendingQueue.handOverLockName, in: folder, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            switch error {
            case .timedOut:
                throw .lockTimeout(path: handOverLockPath, seconds: Double(timeoutMilliseconds) / 1000)
            case .system(let e): throw .io(e)
            }
        }
    }

    /// `queue/.claims.lock`: one byte of it per item (at a hash of the id),
    /// locked by whoever hands that item over or withdraws it. A hand-over
    /// takes it under the hand-over lock, from loading the item to removing
    /// it; an undo takes it without waiting, so it can tell "being handed
    /// over" from "removed" without waiting for other items' hand-overs.
    static let claimsLockName = ".claims.lock"

    /// Claims the item `id`, waiting at most `timeoutMilliseconds` (0: one try).
    /// - Throws: `.lockTimeout` when another holds the claim that long.
    public func claim(id: String, timeoutMilliseconds: Int64) throws(SuiteError) -> FileLock {
        guard let folder = try container.folder(PendingQueue.folderName, create: true) else {  // never a link
            throw .io(SystemError("open", container.queuePath, code: Errno.notFound))
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in id.utf8 {
            hash ^= UInt64(b)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        do {
            return try FileLock.acquireByte(
                Int64(hash >> 2), of: PendingQueue.claimsLockName, in: folder,
                timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            switch error {
            case .timedOut:
                throw .lockTimeout(
                    path: container.queuePath + "/" + PendingQueue.claimsLockName,
                    seconds: Double(timeoutMilliseconds) / 1000)
            case .system(let e): throw .io(e)
            }
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
