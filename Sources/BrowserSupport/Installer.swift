import BridgeJSON
import BridgeProtocol
import BridgeSystem

/// Writes host manifests and the host's allowlist, and remembers what it
/// wrote in a receipt so `uninstall` removes exactly that.
public struct Installer {
    public let home: String
    /// The receipt: `$XDG_DATA_HOME/extension-bridge/install-receipt.json`
    /// (macOS: `~/Library/Application Support/ExtensionBridge/…`).
    public let receiptPath: String
    /// The Debian package's files: never written, recorded or removed.
    public let packaged: PackagedFiles
    /// The user install acts as: an existing file of another owner is never rewritten or recorded.
    public let userID: UInt32

    public init(
        home: String, receiptPath: String, packaged: PackagedFiles = PackagedFiles(root: ""),
        userID: UInt32 = Platform.effectiveUserID
    ) {
        self.home = home
        self.receiptPath = receiptPath
        self.packaged = packaged
        self.userID = userID
    }

    /// The receipt of the bridge whose host is `hostName`: the built-in one
    /// keeps `install-receipt.json`; every other `receipts/<host name>.json`,
    /// so bridges install and uninstall side by side.
    public static func receiptPath(home: String, environment: Environment, hostName: String) -> String {
        if hostName == HostIdentity.defaultHostName { return defaultReceiptPath(home: home, environment: environment) }
        return receiptsFolder(home: home, environment: environment) + "/" + hostName + ".json"
    }

    /// Where the receipts of bridges other than the built-in one are.
    public static func receiptsFolder(home: String, environment: Environment) -> String {
        FileSystem.parentPath(defaultReceiptPath(home: home, environment: environment)) + "/receipts"
    }

    /// Where `install --config` copies a generated bridge's host: a stable
    /// folder of its own (`hosts/<host name>/`), never the build folder.
    public static func hostFolder(home: String, environment: Environment, hostName: String) -> String {
        FileSystem.parentPath(defaultReceiptPath(home: home, environment: environment)) + "/hosts/" + hostName
    }

    /// Where a system install (`install --config --system`, a bridge's Debian package) puts a
    /// generated bridge's host and its configuration: `/usr/lib/<host name>`.
    public static func systemHostFolder(hostName: String) -> String { "/usr/lib/" + hostName }

    /// The default receipt location for an environment.
    public static func defaultReceiptPath(home: String, environment: Environment) -> String {
        Platform.applicationDataFolder(
            home: home, xdgDataHome: environment["XDG_DATA_HOME"], linuxName: "extension-bridge",
            macName: "ExtensionBridge") + "/install-receipt.json"
    }

    /// Every file install would write, manifests first, the host configuration last.
    /// A path that is not absolute is refused: a receipt that recorded one would have `uninstall`,
    /// run in another folder, remove a file install never wrote and leave the one it did.
    public func plan(_ options: InstallOptions) throws(InstallError) -> [PlannedFile] {
        try HostManifest.validate(name: options.hostName)
        for path in [home, options.hostPath] + (options.userDataDirectory.map { [$0] } ?? []) {
            try Installer.requireAbsolute(path)
        }
        // An extension `install --crx` put into a browser stays there while its External Extensions
        // file does: an install without `--crx` (doctor's fix, `--log-level`) still allows it.
        let identity = keepingInstalledExtensions(options.identity)
        var files: [PlannedFile] = []
        if let binary = options.hostBinary {
            files.append(PlannedFile(path: options.hostPath, bytes: binary, kind: .hostBinary))
        }
        files += try HostRegistration.manifests(
            hostName: options.hostName, hostPath: options.hostPath, browsers: options.browsers, identity: identity
        ) { (browser) throws(InstallError) in
            guard let profile = options.userDataDirectory else {
                return .target(for: browser, home: home, system: options.system)
            }
            guard browser.family == .chromium else { throw .firefoxWithProfile }
            return .profile(profile, browser: browser)
        }
        if let packed = options.packedExtension {
            files += try packedFiles(packed, options)
        }
        files.append(
            try HostRegistration.configuration(
                hostPath: options.hostPath, identity: identity, group: options.group, logLevel: options.logLevel))
        for file in files { try Installer.requireAbsolute(file.path) }
        // The key install just made goes first, so it is recorded before anything else is written.
        return files.filter { $0.kind == .signingKey } + files.filter { $0.kind != .signingKey }
    }

    /// Refuses a path that is not absolute and plain (no `.` or `..` component).
    static func requireAbsolute(_ path: String) throws(InstallError) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard path.hasPrefix("/"), !parts.contains("."), !parts.contains("..") else { throw .relativePath(path) }
    }

    /// The CRX, the key install made (if it did), and an `External Extensions`
    /// file for each selected browser that reads that folder (Chromium, Edge,
    /// Brave, Vivaldi; Google Chrome takes only the Web Store), in its user data
    /// folder or `--user-data-dir`. Linux only: untested elsewhere.
    private func packedFiles(_ packed: PackedExtension, _ options: InstallOptions) throws(InstallError)
        -> [PlannedFile]
    {
        if options.system { throw .packedWithSystem }
        var files: [PlannedFile] = []
        if let key = packed.createdKey {
            files.append(PlannedFile(path: key.path, bytes: key.bytes, kind: .signingKey))
        }
        files.append(PlannedFile(path: packed.crxPath, bytes: packed.crx, kind: .packedExtension))
        for browser in options.browsers where browser.readsExternalExtensions && !Platform.isMacOS {
            let dataFolder = options.userDataDirectory ?? home + "/" + browser.linuxConfig
            let path = dataFolder + "/External Extensions/" + packed.chromiumID + ".json"
            if !files.contains(where: { $0.path == path }) {
                files.append(
                    PlannedFile(path: path, bytes: packed.externalFile, kind: .externalExtension(browser: browser.id)))
            }
        }
        return files
    }

    /// What happened to one file.
    public enum Outcome: String, Equatable, Sendable {
        case written, unchanged, removed, missing
        /// Already there with the same content, but not written by install: left out of the receipt.
        case found = "found (not ours: not recorded)"
        /// The Debian package's: left alone, never recorded or removed.
        case packaged = "kept (the package's)"
        /// Changed since install wrote it: left alone.
        case keptChanged = "kept (changed since install)"
        /// A manifest or `External Extensions` file recorded outside the folders install writes them
        /// into: not install's, so left alone.
        case notInItsFolder = "kept (not in a folder install writes for its kind)"
    }

    /// Which bridge a receipt belongs to, so `doctor` can check every one installed.
    public struct InstalledBridge: Equatable, Sendable {
        public var hostName: String
        public var identity: ExtensionIdentity
        /// The absolute path of the `bridge.json` it was installed with (`--config`), if any.
        public var configPath: String?

        public init(hostName: String, identity: ExtensionIdentity, configPath: String? = nil) {
            self.hostName = hostName
            self.identity = identity
            self.configPath = configPath
        }
    }

    /// The folder whose lock every install, uninstall and `pack` that changes a receipt takes: the
    /// one that holds the receipts (`install-receipt.json`, `receipts/`, `keys/`), so two at once
    /// never lose each other's records.
    var lockFolder: String {
        let folder = FileSystem.parentPath(receiptPath)
        return FileSystem.lastComponent(folder) == "receipts" ? FileSystem.parentPath(folder) : folder
    }

    /// How long install waits for another install or uninstall of this user to finish.
    static let lockTimeoutMilliseconds: Int64 = 60_000

    /// Runs `body` holding the lock on `lockFolder` (made, 0700, when `create`; without it and
    /// without the folder, `body` runs unlocked: there is no receipt to change).
    func locked<T>(create: Bool, _ body: () throws(InstallError) -> T) throws(InstallError) -> T {
        if !create, (try? FileSystem.status(lockFolder)) == nil { return try body() }
        let lock: FileLock
        do {
            try FileSystem.makeDirectories(lockFolder, permissions: 0o700)
            lock = try FileLock.acquire(folder: lockFolder, timeoutMilliseconds: Installer.lockTimeoutMilliseconds)
        } catch let error as SystemError {
            throw .io(error)
        } catch let error as FileLock.Failure {
            if case .system(let failure) = error { throw .io(failure) }
            throw .busy(folder: lockFolder)
        } catch {
            throw .busy(folder: lockFolder)
        }
        defer { lock.release() }
        return try body()
    }

    /// Throws when the receipt, or the folder it is (to be) kept in, fails `PathTrust`: uninstall
    /// removes every file the receipt names with the user's rights (root's, under sudo), so a receipt
    /// another user owns or could rewrite would let them choose what is removed. With no receipt
    /// folder yet, the nearest existing folder above is held to the rule of a folder on the way.
    public func requireTrustedReceipt() throws(InstallError) {
        if let refusal = PathTrust.refusal(toCreate: receiptPath, userID: userID) { throw .untrustedReceipt(refusal) }
    }

    /// The signing keys install made and recorded: uninstall removes them with the last manifest.
    public func recordedSigningKeys() -> [String] {
        loadReceipt().filter { $0.kind == .signingKey }.map(\.path)
    }

    /// Takes the signing key at `path` out of the receipt, so `uninstall` leaves it: `pack` signed
    /// a package with it, and every later version must be signed with the same key.
    public func keepSigningKey(_ path: String) throws(InstallError) {
        try requireTrustedReceipt()
        try locked(create: false) { () throws(InstallError) in
            var receipt = loadReceipt()
            // The same file by another name (a link on the way) is the same key.
            let resolved = FileSystem.resolvedPath(path) ?? path
            func isKey(_ entry: ReceiptEntry) -> Bool {
                entry.path == path || (FileSystem.resolvedPath(entry.path) ?? entry.path) == resolved
            }
            guard receipt.contains(where: isKey) else { return }
            receipt.removeAll(where: isKey)
            try saveReceipt(receipt, bridge: loadBridge())
        }
    }

    /// Why install may not replace `current`, the file already at a planned manifest's path that no
    /// receipt of ours names: another program's host manifest (a password manager's, say), which a
    /// host name chosen to match would otherwise overwrite, and uninstall then remove. A manifest
    /// is ours when its `description` is ours (`HostManifest.description`).
    static func otherProgramsManifest(_ file: PlannedFile, current: [UInt8]) -> InstallError? {
        guard case .manifest = file.kind else { return nil }
        let description = (try? JSONParser.parse(current))?["description"]?.stringValue
        if description == HostManifest.description { return nil }
        // A link to some other file is not known to be a program's manifest: say what it is.
        if (try? FileSystem.status(file.path))?.isSymbolicLink == true {
            return .linkedManifest(path: file.path, target: FileSystem.resolvedPath(file.path))
        }
        return .otherProgramsManifest(path: file.path, description: description)
    }

    /// The largest file install compares or removes (a static host is a few MB).
    static let fileLimit = 256 << 20

    /// Why install may not touch `path`, or nil: a file of the Debian package,
    /// or an existing file (or link) owned by another user.
    func foreignOwner(_ path: String) -> InstallError? {
        if packaged.owns(path) { return .packageOwned(path: path) }
        if let info = try? FileSystem.status(path), info.owner != userID {
            return .notOurs(path: path, owner: info.owner)
        }
        return nil
    }

    /// Writes the planned files (only those whose content differs) and records
    /// them, with the bridge they belong to, in the receipt, unless
    /// `recordReceipt` is false (a package's staging folder: dpkg owns those files).
    ///
    /// Only what install made is recorded, so `uninstall` removes only that:
    /// a file it wrote now, or one the receipt already held. A file
    /// already there with the same content is `found`, not recorded. A file of
    /// the Debian package or of another user is never rewritten: install
    /// refuses before writing anything if one would change, and leaves it out
    /// of the receipt if it is already right.
    public func apply(_ plan: [PlannedFile], bridge: InstalledBridge? = nil, recordReceipt: Bool = true)
        throws(InstallError) -> [(PlannedFile, Outcome)]
    {
        guard recordReceipt else { return try write(plan, bridge: bridge, recordReceipt: false) }
        try requireTrustedReceipt()
        // Refused before the lock's folder is made: a refusal changes nothing (checked again under the lock).
        try refuseForeignFiles(plan, receipt: loadReceipt())
        return try locked(create: true) { () throws(InstallError) in
            try write(plan, bridge: bridge, recordReceipt: true)
        }
    }

    /// Throws what `apply` would refuse `plan` for, writing nothing: run before install makes
    /// anything of its own (a signing key), so a refused install makes nothing.
    public func check(_ plan: [PlannedFile]) throws(InstallError) {
        try refuseForeignFiles(plan, receipt: loadReceipt())
    }

    /// Throws when a planned file would change one install may not touch: the Debian package's,
    /// another user's, or another program's host manifest that `receipt` does not name.
    private func refuseForeignFiles(_ plan: [PlannedFile], receipt: [ReceiptEntry]) throws(InstallError) {
        for file in plan {
            // The folder a file goes into, and each on its way, as PathTrust holds them: another
            // user's folder (or link) there would choose where a file of ours, root's under sudo, lands.
            if let refusal = PathTrust.refusal(toCreate: FileSystem.parentPath(file.path), userID: userID) {
                throw .untrustedDestination(refusal)
            }
            let current = try? FileSystem.readFile(file.path, limit: Installer.fileLimit)
            if let refusal = foreignOwner(file.path), current != file.bytes { throw refusal }
            if let current, current != file.bytes, !receipt.contains(where: { $0.path == file.path }),
                let refusal = Installer.otherProgramsManifest(file, current: current)
            {
                throw refusal
            }
        }
    }

    /// `apply`'s work, under the lock when it records. Each file is recorded before it is written
    /// (and its entry put back if the write fails): an install that stops half way leaves a receipt
    /// naming everything it wrote, and uninstall removes a recorded file only while it still holds
    /// what install wrote.
    private func write(_ plan: [PlannedFile], bridge: InstalledBridge?, recordReceipt: Bool)
        throws(InstallError) -> [(PlannedFile, Outcome)]
    {
        var receipt = loadReceipt()
        var bridge = bridge ?? loadBridge()
        if let recorded = bridge { bridge?.identity = keepingInstalledExtensions(recorded.identity) }
        var results: [(PlannedFile, Outcome)] = []
        try refuseForeignFiles(plan, receipt: receipt)
        func record(_ entries: [ReceiptEntry]) throws(InstallError) {
            receipt = entries
            if recordReceipt { try saveReceipt(entries, bridge: bridge) }
        }
        for file in plan {
            let current = try? FileSystem.readFile(file.path, limit: Installer.fileLimit)
            let entry = ReceiptEntry(
                path: file.path, sha256: FileSystem.hex(SHA256.digest(file.bytes)), kind: file.kind)
            let others = receipt.filter { $0.path != file.path }
            if let refusal = foreignOwner(file.path) {
                // The same content (checked above): theirs, left alone and unrecorded.
                if case .packageOwned = refusal {
                    results.append((file, .packaged))
                } else {
                    results.append((file, .found))
                }
                if others.count != receipt.count { try record(others) }
                continue
            }
            if current == file.bytes {
                if file.kind == .signingKey && !receipt.contains(where: { $0.path == file.path }) {
                    // Made by this install a moment ago (openssl signs from the file), so it is ours:
                    // the plan holds the key only when install made it.
                    results.append((file, .written))
                } else if receipt.contains(where: { $0.path == file.path }) {
                    results.append((file, .unchanged))
                } else {
                    results.append((file, .found))
                    continue
                }
                if !receipt.contains(entry) { try record(others + [entry]) }
                continue
            }
            let before = receipt
            try record(others + [entry])
            do {
                try FileSystem.makeDirectories(FileSystem.parentPath(file.path), permissions: 0o755)
                try FileSystem.writeAtomically(file.path, file.bytes, permissions: file.permissions)
            } catch {
                try? record(before)
                throw .io(error)
            }
            results.append((file, .written))
        }
        if recordReceipt { try saveReceipt(receipt, bridge: bridge) }
        return results
    }

    /// Removes what install wrote: for `browsers` (nil: everything), and only
    /// under `folderPrefix` when given. The host configuration goes with the last manifest.
    /// A file changed since install wrote it is left alone.
    /// - Throws: `InstallError.relativePath` for a `folderPrefix` that is not absolute.
    public func uninstall(browsers: [Browser]?, folderPrefix: String?) throws(InstallError) -> [(String, Outcome)] {
        if let folderPrefix { try Installer.requireAbsolute(folderPrefix) }
        try requireTrustedReceipt()
        return try locked(create: false) { () throws(InstallError) in
            try removeRecorded(browsers: browsers, folderPrefix: folderPrefix)
        }
    }

    /// What `uninstall` with the same arguments would do to each file, removing nothing: `.removed`
    /// for a file it would remove, else why it would stay (`uninstall --dry-run`).
    public func uninstallPreview(browsers: [Browser]?, folderPrefix: String?) throws(InstallError) -> [(
        String, Outcome
    )] {
        if let folderPrefix { try Installer.requireAbsolute(folderPrefix) }
        try requireTrustedReceipt()
        return recordedToRemove(browsers: browsers, folderPrefix: folderPrefix).going.map { entry in
            (entry.path, keptBecause(entry) ?? .removed)
        }
    }

    /// The receipt's entries `uninstall` removes for `browsers` under `folderPrefix`, and the rest:
    /// the host configuration (and the key and CRX) go with the last manifest.
    func recordedToRemove(browsers: [Browser]?, folderPrefix: String?) -> (
        going: [ReceiptEntry], staying: [ReceiptEntry]
    ) {
        let receipt = loadReceipt()
        let ids = browsers.map { Set($0.map(\.id)) }
        func selected(_ entry: ReceiptEntry) -> Bool {
            let browser: String
            switch entry.kind {
            case .manifest(let name), .externalExtension(let name): browser = name
            default: return false
            }
            if let ids, !ids.contains(browser) { return false }
            if let folderPrefix, !entry.path.hasPrefix(folderPrefix + "/") { return false }
            return true
        }
        let going = receipt.filter(selected)
        let staying = receipt.filter { !selected($0) }
        if !staying.contains(where: { if case .manifest = $0.kind { return true } else { return false } }) {
            return (going + staying, [])
        }
        return (going, staying)
    }

    private func removeRecorded(browsers: [Browser]?, folderPrefix: String?) throws(InstallError) -> [(
        String, Outcome
    )] {
        let (going, staying) = recordedToRemove(browsers: browsers, folderPrefix: folderPrefix)
        var results: [(String, Outcome)] = []
        for entry in going {
            results.append((entry.path, try remove(entry)))
        }
        let receipt = staying
        if receipt.isEmpty {
            // Nothing of this bridge is left: neither is its receipt, nor our folders it emptied.
            do {
                try FileSystem.remove(receiptPath)
                let receipts = FileSystem.parentPath(receiptPath)
                let hosts = FileSystem.parentPath(receipts) + "/hosts"
                for folder in [receipts, hosts] where FileSystem.lastComponent(receipts) == "receipts" {
                    if (try? FileSystem.listDirectory(folder))?.isEmpty == true { try FileSystem.removeTree(folder) }
                }
            } catch {
                throw .io(error)
            }
        } else {
            try saveReceipt(receipt, bridge: loadBridge())
        }
        return results
    }

    /// Why `entry` stays, or nil when uninstall removes it.
    private func keptBecause(_ entry: ReceiptEntry) -> Outcome? {
        if !Installer.isInItsFolder(entry) { return .notInItsFolder }
        // A receipt written by an older install may name a package's file that install only found.
        if packaged.owns(entry.path) { return .packaged }
        guard let bytes = try? FileSystem.readFile(entry.path, noFollow: true, limit: Installer.fileLimit) else {
            return .missing
        }
        if FileSystem.hex(SHA256.digest(bytes)) != entry.sha256 { return .keptChanged }
        return nil
    }

    /// Whether `entry`, a host manifest or an `External Extensions` file, is in the folder install
    /// writes that kind into (a plain path, no `.` or `..`). A trusted receipt names nothing else,
    /// but should one name another file, uninstall leaves it rather than remove it with the user's rights.
    static func isInItsFolder(_ entry: ReceiptEntry) -> Bool {
        let parts = entry.path.split(separator: "/", omittingEmptySubsequences: false)
        guard entry.path.hasPrefix("/"), !parts.contains("."), !parts.contains("..") else { return false }
        let folder = parts.dropLast().last.map(String.init) ?? ""
        switch entry.kind {
        case .manifest: return folder == "NativeMessagingHosts" || folder == "native-messaging-hosts"
        case .externalExtension: return folder == "External Extensions"
        default: return true
        }
    }

    private func remove(_ entry: ReceiptEntry) throws(InstallError) -> Outcome {
        if let kept = keptBecause(entry) { return kept }
        do {
            try FileSystem.remove(entry.path)
            if entry.kind == .hostBinary || entry.kind == .configuration {
                // A generated bridge's own host folder goes once empty.
                let folder = FileSystem.parentPath(entry.path)
                if FileSystem.lastComponent(FileSystem.parentPath(folder)) == "hosts",
                    (try? FileSystem.listDirectory(folder))?.isEmpty == true
                {
                    try FileSystem.removeTree(folder)
                }
            }
        } catch {
            throw .io(error)
        }
        return .removed
    }

    // MARK: - Receipt

    struct ReceiptEntry: Equatable {
        var path: String
        var sha256: String
        var kind: PlannedFile.Kind
    }

    func loadReceipt() -> [ReceiptEntry] {
        guard let bytes = try? FileSystem.readFile(receiptPath), let json = try? JSONParser.parse(bytes) else {
            return []
        }
        return (json["files"]?.arrayValue ?? []).compactMap { item in
            guard let path = item["path"]?.stringValue, let sha = item["sha256"]?.stringValue else { return nil }
            let kind: PlannedFile.Kind
            switch item["kind"]?.stringValue {
            case "allowlist": kind = .allowlist
            case "configuration": kind = .configuration
            case "hostBinary": kind = .hostBinary
            case "externalExtension": kind = .externalExtension(browser: item["browser"]?.stringValue ?? "")
            case "packedExtension": kind = .packedExtension
            case "signingKey": kind = .signingKey
            default: kind = .manifest(browser: item["browser"]?.stringValue ?? "")
            }
            return ReceiptEntry(path: path, sha256: sha, kind: kind)
        }
    }

    /// `identity` with the Chromium id of every extension `install --crx` installed whose External
    /// Extensions file (named in the receipt) is still there: the browser keeps that extension, so the
    /// host must keep allowing it.
    public func keepingInstalledExtensions(_ identity: ExtensionIdentity) -> ExtensionIdentity {
        var identity = identity
        for entry in loadReceipt() {
            guard case .externalExtension = entry.kind, (try? FileSystem.status(entry.path)) != nil else { continue }
            let id = String(FileSystem.lastComponent(entry.path).dropLast(".json".count))
            if ExtensionIdentity.isChromiumID(id), !identity.chromiumIDs.contains(id) {
                identity.chromiumIDs.append(id)
            }
        }
        return identity
    }

    /// The bridge the receipt names, if it names one.
    func loadBridge() -> InstalledBridge? {
        guard let bytes = try? FileSystem.readFile(receiptPath), let json = try? JSONParser.parse(bytes),
            let bridge = json["bridge"], let hostName = bridge["hostName"]?.stringValue
        else { return nil }
        let strings = { (key: String) in (bridge[key]?.arrayValue ?? []).compactMap(\.stringValue) }
        return InstalledBridge(
            hostName: hostName,
            identity: ExtensionIdentity(chromiumIDs: strings("chromiumIDs"), firefoxIDs: strings("firefoxIDs")),
            configPath: bridge["config"]?.stringValue)
    }

    /// Every bridge with a receipt in `folder` (`receipts/<host name>.json`).
    public static func installedBridges(receiptsFolder folder: String) -> [InstalledBridge] {
        let names = ((try? FileSystem.listDirectory(folder)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        return names.compactMap { name in
            let installer = Installer(home: "", receiptPath: folder + "/" + name)
            guard var bridge = installer.loadBridge() else { return nil }
            bridge.identity = installer.keepingInstalledExtensions(bridge.identity)
            return bridge
        }
    }

    func saveReceipt(_ entries: [ReceiptEntry], bridge: InstalledBridge?) throws(InstallError) {
        let files: [JSONValue] = entries.map { entry in
            var members: [String: JSONValue] = ["path": .string(entry.path), "sha256": .string(entry.sha256)]
            switch entry.kind {
            case .manifest(let browser):
                members["kind"] = "manifest"
                members["browser"] = .string(browser)
            case .allowlist:
                members["kind"] = "allowlist"
            case .configuration:
                members["kind"] = "configuration"
            case .hostBinary:
                members["kind"] = "hostBinary"
            case .externalExtension(let browser):
                members["kind"] = "externalExtension"
                members["browser"] = .string(browser)
            case .packedExtension:
                members["kind"] = "packedExtension"
            case .signingKey:
                members["kind"] = "signingKey"
            }
            return .object(members)
        }
        var document: JSONValue = ["formatVersion": 1, "files": .array(files)]
        if let bridge, case .object(var members) = document {
            var described: [String: JSONValue] = [
                "hostName": .string(bridge.hostName),
                "chromiumIDs": .array(bridge.identity.chromiumIDs.map(JSONValue.string)),
                "firefoxIDs": .array(bridge.identity.firefoxIDs.map(JSONValue.string)),
            ]
            if let config = bridge.configPath { described["config"] = .string(config) }
            members["bridge"] = .object(described)
            document = .object(members)
        }
        do {
            try FileSystem.makeDirectories(FileSystem.parentPath(receiptPath), permissions: 0o700)
            try FileSystem.writeAtomically(receiptPath, JSONWriter.prettyBytes(document))
        } catch {
            throw .io(error)
        }
    }
}
