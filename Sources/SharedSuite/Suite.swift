import BridgeJSON
import BridgeSystem

/// The suite file: one versioned JSON document shared by the CLI (writer) and
/// the host (reader, and writer of a few settings).
///
/// * Readers take no lock. A reader holds the last snapshot with the file's
///   identity (device, inode, size, times) and re-reads only when the
///   identity changes. It keeps the file it read open: an unchanged suite
///   costs one `fstat` of it, and a writer's rename over it (or an unlink)
///   leaves it without a name, which that `fstat` sees at once. The path is
///   `stat`ed again at least every `pathCheckInterval` milliseconds, for
///   changes a held file cannot show (its folder renamed or replaced).
/// * Writers take an exclusive `flock` on `.suite.lock`, read the newest file,
///   apply their change, and replace the file atomically (temporary file,
///   `fsync`, `rename`, `fsync` of the folder): a reader or a crash at any
///   instant sees the old or the new suite, never a torn one.
/// * A file that cannot be read (not JSON, wrong types, newer format) is never
///   overwritten: every write fails until `repair()` moves it aside.
public final class Suite: SuiteStore {
    /// The format this code writes and the newest it reads.
    public static let formatVersion = SuiteDocument.formatVersion

    public let container: GroupContainer
    /// The suite file's name in the container.
    static let fileName = "suite.json"

    /// The deepest nesting a value may have (the file adds two levels).
    public static let maximumValueDepth = SuiteDocument.maximumDepth - 2

    /// How long a writer waits for the lock.
    public let lockTimeout: Double
    /// How stale a held file may be for changes only the path shows.
    public static let pathCheckInterval: Int64 = 250
    /// The last snapshot, the open file it was read from, and when its path
    /// was last `stat`ed. (A class: an optional reference needs no generic
    /// metadata to destroy, which an optional snapshot did on every start-up.)
    private final class Held {
        let snapshot: SuiteSnapshot
        let descriptor: FileDescriptor
        var pathChecked: Int64

        init(_ snapshot: SuiteSnapshot, descriptor: FileDescriptor, pathChecked: Int64) {
            self.snapshot = snapshot
            self.descriptor = descriptor
            self.pathChecked = pathChecked
        }

        deinit { descriptor.close() }
    }

    private var held: Held?
    /// The file `held` had before it was replaced, still open. Closing the
    /// last descriptor of a deleted file frees it (about 0.1 ms on ext4 here),
    /// so that waits for `releaseStaleFile()`, after the reply is sent.
    private var stale: Held?

    /// The clock for `pathCheckInterval` and the lock timeout.
    private let clock: MonotonicClock

    public init(container: GroupContainer, lockTimeout: Double = 5, clock: MonotonicClock = .system) {
        self.container = container
        self.lockTimeout = lockTimeout
        self.clock = clock
    }

    /// Drops the cached snapshot; its file is closed by `releaseStaleFile()`.
    private func forget() {
        if let held { stale = held }  // an older stale file is closed here
        held = nil
    }

    public func releaseStaleFile() { stale = nil }

    public func changeToken() throws(SuiteError) -> ChangeToken? {
        try currentIdentity().map(ChangeToken.init)
    }

    private func currentIdentity() throws(SuiteError) -> FileIdentity? {
        // The name itself, not a link's target: a link there changes the identity and is then refused.
        try SuiteError.wrap { () throws(SystemError) in try FileSystem.status(container.suitePath)?.identity }
    }

    public func snapshot() throws(SuiteError) -> SuiteSnapshot {
        let now = clock.milliseconds
        if let held, now - held.pathChecked < Suite.pathCheckInterval,
            let current = held.descriptor.status(), current.linkCount > 0,
            held.snapshot.version == ChangeToken(current.identity)
        {
            return held.snapshot  // the file read last still has its name and is unchanged
        }
        let identity = try currentIdentity()
        guard let identity else {
            forget()
            return SuiteSnapshot()
        }
        if let held, held.snapshot.version == ChangeToken(identity) {
            held.pathChecked = now
            return held.snapshot
        }
        forget()
        let path = container.suitePath
        let (bytes, readIdentity, descriptor): ([UInt8], FileIdentity, FileDescriptor)
        guard let folder = try container.directory() else { return SuiteSnapshot() }
        do {
            (bytes, readIdentity, descriptor) = try folder.openAndRead(Suite.fileName)
        } catch {
            if error.isNotFound { return SuiteSnapshot() }
            throw .io(error)
        }
        do throws(SuiteError) {
            let fresh = try Suite.snapshot(ofFile: bytes, path: path, identity: readIdentity)
            held = Held(fresh, descriptor: descriptor, pathChecked: now)
            return fresh
        } catch {
            descriptor.close()
            throw error
        }
    }

    /// Reads and decodes the file now, bypassing the cache.
    public func readFile() throws(SuiteError) -> SuiteSnapshot {
        guard let folder = try container.directory() else { return SuiteSnapshot() }
        return try readFile(in: folder)
    }

    /// `readFile()` in the container folder already open (a writer holds it with the lock).
    private func readFile(in folder: Directory) throws(SuiteError) -> SuiteSnapshot {
        let path = container.suitePath
        let (bytes, identity): ([UInt8], FileIdentity?)
        do {
            (bytes, identity) = try folder.readFile(Suite.fileName)
        } catch {
            if error.isNotFound { return SuiteSnapshot() }
            throw .io(error)
        }
        return try Suite.snapshot(ofFile: bytes, path: path, identity: identity)
    }

    /// A snapshot of a suite file's bytes: the whole file is checked now (as
    /// `decode` checks it), values are decoded when they are asked for.
    /// - Throws: `.corrupt` naming `path` and what is wrong, `.newerFormat`.
    public static func snapshot(ofFile bytes: [UInt8], path: String, identity: FileIdentity? = nil)
        throws(SuiteError)
        -> SuiteSnapshot
    {
        let index = try bytes.withUnsafeBufferPointer { (buffer) throws(SuiteError) in
            try SuiteDocument.index(buffer, path: path)
        }
        return SuiteSnapshot(fileBytes: bytes, index: index, version: identity.map(ChangeToken.init))
    }

    /// Changes values under the suite's lock and writes them. The enabled rule is applied here,
    /// so every writer (the CLI, the host's `setSettings`, an app) keeps `extensionEnabled` and the
    /// seed's `user_defaults_suite_enabled` in step: the last write of either wins
    /// (``SuiteKeys/keepEnabledInStep(before:after:)``).
    public func update(_ change: (inout [String: SuiteValue]) -> Void) throws(SuiteError) {
        try withLock { (folder) throws(SuiteError) in
            let before = try readFile(in: folder).values
            var values = before
            change(&values)
            SuiteKeys.keepEnabledInStep(before: before, after: &values)
            try write(values, in: folder)
        }
    }

    /// Replaces every value (the CLI's `import`), with the enabled rule of ``update(_:)``: an
    /// enabled key the new values change brings the other along.
    public func replaceAll(_ values: [String: SuiteValue]) throws(SuiteError) {
        try withLock { (folder) throws(SuiteError) in
            let before = try readFile(in: folder).values  // refuse to overwrite a corrupt or newer file
            var values = values
            SuiteKeys.keepEnabledInStep(before: before, after: &values)
            try write(values, in: folder)
        }
    }

    /// What `repair()` did.
    public enum RepairOutcome: Equatable, Sendable {
        case nothingToRepair
        /// The unreadable file, whole, is now at `to`; the new suite holds the
        /// `kept` keys (each read back as it was), `setAside` names those that
        /// are only in the moved file.
        case movedAside(to: String, reason: String, kept: [String], setAside: [String])
    }

    /// Moves an unreadable suite file aside (`suite.json.corrupt-<time>`), and
    /// writes a new suite with every key of it that still reads: nothing is
    /// deleted (the moved file keeps all of it). A readable file, or one of a
    /// newer format, is left alone.
    public func repair(now: WallTime = .now()) throws(SuiteError) -> RepairOutcome {
        try withLock { (folder) throws(SuiteError) -> RepairOutcome in
            let bytes: [UInt8]
            do throws(SuiteError) {
                _ = try readFile(in: folder)
                return .nothingToRepair
            } catch {
                guard case .corrupt(_, let reason) = error else { throw error }
                bytes = (try? folder.readFile(Suite.fileName).bytes) ?? []
                let (kept, setAside) = Suite.salvage(bytes)
                let stamp = now.iso8601.filter { $0 != ":" && $0 != "-" && $0 != "." }
                let asideName = Suite.fileName + ".corrupt-" + stamp
                let target = container.path + "/" + asideName
                try SuiteError.wrap { () throws(SystemError) in
                    try folder.move(Suite.fileName, to: asideName)
                    try folder.sync()
                }
                forget()
                if !kept.isEmpty { try write(kept, in: folder) }
                return .movedAside(
                    to: target, reason: reason, kept: kept.keys.sorted(by: JSONWriter.utf8Precedes),
                    setAside: setAside.sorted(by: JSONWriter.utf8Precedes))
            }
        }
    }

    /// The values of an unreadable suite file that still read back one by
    /// one, and the names of those that do not. A file that is not a JSON
    /// object with `values` keeps nothing.
    static func salvage(_ bytes: [UInt8]) -> (kept: [String: SuiteValue], setAside: [String]) {
        // Deeper than a file may be, so a too-deep value does not hide the others.
        guard let top = try? JSONParser.parse(bytes, maximumDepth: SuiteDocument.maximumDepth * 4),
            let members = top.objectValue?["values"]?.objectValue
        else { return ([:], []) }
        var kept: [String: SuiteValue] = [:]
        var setAside: [String] = []
        for (key, json) in members {
            if let value = try? SuiteValue(json: json),
                (try? checkReadsBack(encode([key: value]), as: [key: value])) != nil
            {
                kept[key] = value
            } else {
                setAside.append(key)
            }
        }
        return (kept, setAside)
    }

    // MARK: - Encoding

    /// Encodes values as the suite document.
    public static func encode(_ values: [String: SuiteValue]) -> [UInt8] {
        JSONWriter.prettyBytes(document(values))
    }

    /// The suite document for `values`.
    public static func document(_ values: [String: SuiteValue]) -> JSONValue {
        .object(["formatVersion": .int(formatVersion), "values": .object(values.mapValues { $0.json })])
    }

    /// Decodes a suite document in one pass.
    /// - Throws: `.corrupt` naming `path` and what is wrong, `.newerFormat`.
    public static func decode(_ bytes: [UInt8], path: String) throws(SuiteError) -> [String: SuiteValue] {
        try bytes.withUnsafeBufferPointer { (buffer) throws(SuiteError) in try SuiteDocument.decode(buffer, path: path)
        }
    }

    /// Decodes a parsed suite document (the CLI's `import`; the file reader is `SuiteDocument`).
    public static func decode(document json: JSONValue, path: String) throws(SuiteError) -> [String: SuiteValue] {
        guard let top = json.objectValue else {
            throw .corrupt(path: path, reason: "the top level is a \(json.typeName), expected an object")
        }
        guard let versionValue = top["formatVersion"] else {
            throw .corrupt(path: path, reason: "formatVersion is missing")
        }
        guard let version = versionValue.intValue, version >= 1 else {
            throw .corrupt(path: path, reason: "formatVersion is not a positive integer")
        }
        if version > formatVersion {
            throw .newerFormat(path: path, version: version, supported: formatVersion)
        }
        let valuesJSON = top["values"] ?? .object([:])
        guard let members = valuesJSON.objectValue else {
            throw .corrupt(path: path, reason: "values is a \(valuesJSON.typeName), expected an object")
        }
        do throws(SuiteError) {
            return try SuiteValue.decodeMembers(members)
        } catch {
            guard case .invalidValue(let reason) = error else { throw error }
            throw .corrupt(path: path, reason: "wrong type at \(reason)")
        }
    }

    /// Refuses bytes the reader would reject or read differently: a value
    /// nested deeper than a file may be, a date the format cannot hold. No
    /// writer commits what every reader would then fail on.
    /// - Throws: `.invalidValue` naming the first key that does not read back.
    static func checkReadsBack(_ bytes: [UInt8], as values: [String: SuiteValue]) throws(SuiteError) {
        let back: [String: SuiteValue]
        do {
            back = try decode(bytes, path: "the new suite")
        } catch {
            let reason: String
            switch error {
            case .corrupt(_, let why): reason = why
            default: reason = error.description
            }
            throw .invalidValue(
                "refused: the suite would be written in a form that cannot be read back (\(reason)); nothing was changed"
            )
        }
        guard back != values else { return }
        let key = values.keys.sorted(by: JSONWriter.utf8Precedes).first { back[$0] != values[$0] } ?? "?"
        throw .invalidValue("refused: '\(key)' would not read back as written; nothing was changed")
    }

    // MARK: - Files and locking

    /// Writes `values` into `folder`, the container the caller holds the lock in.
    private func write(_ values: [String: SuiteValue], in folder: Directory) throws(SuiteError) {
        let bytes = Suite.encode(values)
        try Suite.checkReadsBack(bytes, as: values)
        _ = folder.sweep(staleAfterSeconds: -1)  // under the lock, no other writer's temporary file can be live
        try SuiteError.wrap { () throws(SystemError) in
            try folder.writeAtomically(Suite.fileName, bytes, permissions: 0o600)
        }
        forget()
    }

    /// Runs `body` holding the suite lock, with the container folder the lock
    /// is in: reads and writes go to that folder, opened once, even if the
    /// container's path (which may be a link) is pointed elsewhere meanwhile.
    private func withLock<T>(_ body: (Directory) throws(SuiteError) -> T) throws(SuiteError) -> T {
        guard let root = try container.directory(create: true) else {
            throw .io(SystemError("open", container.path, code: Errno.notFound))
        }
        let path = container.lockPath
        let lock: FileLock
        do {
            lock = try FileLock.acquire(
                GroupContainer.lockFileName, in: root, timeoutMilliseconds: Int64(lockTimeout * 1000), clock: clock)
        } catch {
            switch error {
            case .timedOut: throw .lockTimeout(path: path, seconds: lockTimeout)
            case .system(let failure): throw .io(failure)
            }
        }
        defer { lock.release() }
        return try body(root)
    }
}
