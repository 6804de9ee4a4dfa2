import BridgeJSON
import BridgeSystem

/// An extension folder read once, ready to be packed for release: the
/// Chrome Web Store zip, the Firefox XPI and a signed CRX3, plus the
/// update manifests for self-hosting. Same folder, same bytes: entries are
/// sorted, dated 1980-01-01, stored, and the manifests are written with
/// sorted keys.
///
/// What is packed: every regular file under the folder except, at its top,
/// `test/`, `tools/`, `bench/`, `node_modules/`, `package.json`,
/// `README.md`, `extension-id.json`, and anywhere a name starting with `.`.
/// A link, a FIFO or a device anywhere else is refused (a link can point
/// anywhere), as is a file or folder that fails `PathTrust` (one others may
/// write: another user could have put their code in what is signed), a file
/// that holds a private key (`PrivateKeyScan`: a
/// package is published whole), a name that is not a safe zip name, and more than
/// `PackLimits.inputBytes` bytes or `PackLimits.entries` files in all.
///
/// ```swift
/// let package = try ExtensionPackage(extensionDirectory: "extension")
/// let crx = try package.crx(key: key, updateURL: nil)
/// // FileSystem.writeAtomically(dist + "/" + package.fileName(.crx), crx)
/// ```
public struct ExtensionPackage: Sendable {
    /// The three packages.
    public enum Artifact: String, CaseIterable, Sendable {
        /// The Chrome Web Store upload.
        case chromeZip = "zip"
        /// The Firefox package (addons.mozilla.org or self-hosted).
        case firefoxXPI = "xpi"
        /// The signed Chromium package (self-hosted, `External Extensions`).
        case crx
    }

    /// Left out when they are at the folder's top: tests, tools, benchmarks, and files only developers read.
    public static let excludedAtTop: Set<String> = [
        "test", "tools", "bench", "node_modules", "package.json", "README.md", "extension-id.json",
    ]

    /// The folder read.
    public let extensionDirectory: String
    /// The files packed besides `manifest.json`, sorted by path.
    public let files: [ZipArchive.Entry]
    /// The names at the folder's top left out as `excludedAtTop` (a folder with a
    /// trailing `/`), sorted: `pack` names them, so an author whose extension
    /// needs one of them sees it before shipping.
    public let leftOut: [String]
    /// The source manifest, as read.
    public let manifest: JSONValue
    /// Chromium's own manifest, when the extension has one (`BridgeDescription.chromiumManifest`): the
    /// zip and the CRX are made from it instead of `manifest`.
    public let chromiumSource: JSONValue?
    /// That manifest as written (with its `key`), for an unpacked install in Chromium.
    public let chromiumManifestBytes: [UInt8]?
    /// Where that manifest was read from.
    public let chromiumManifestPath: String?
    /// `manifest.json` as written in the folder (with its `key`): what an unpacked install needs.
    public let manifestBytes: [UInt8]
    /// The manifest's `version` (one to four dot-separated numbers, each at most 65535).
    public let version: String
    /// `browser_specific_settings.gecko.id`, when the manifest has one.
    public let firefoxID: String?
    /// The start of the file names: the manifest's name (resolved from `_locales` when it is a
    /// `__MSG_…__`) in lower case, words joined by `-` (`ExtensionBridge` → `extension-bridge`).
    public var slug: String

    /// Reads the folder: every file that goes into the packages, and the manifest.
    /// - Parameters:
    ///   - extensionDirectory: the folder with `manifest.json` (a link to a folder is followed here, and only here).
    ///   - chromiumManifest: Chromium's own manifest, when the extension has one (a file; the folder's
    ///     `manifest.json` is then Firefox's). Its `version` must be the folder manifest's.
    ///   - limit: the most bytes read, all files together.
    ///   - userID: the user the files must belong to (or root), as `PathTrust` has it.
    /// - Throws: `PackError.missingExtension` (66) without a folder or manifest; `.symbolicLink`,
    ///   `.notRegularFile`, `.privateKey`, `.unsafeName`, `.tooLarge`, `.manifest` (65); `.untrustedInput`
    ///   (77); `.io` (74).
    public init(
        extensionDirectory: String, chromiumManifest: String? = nil, limit: Int = PackLimits.inputBytes,
        userID: UInt32 = Platform.effectiveUserID
    ) throws(PackError) {
        self.extensionDirectory = extensionDirectory
        let root: Directory
        do {
            root = try Directory.open(extensionDirectory, noFollow: false)
        } catch {
            if error.isNotFound || error.code == Errno.notDirectory {
                throw .missingExtension(path: extensionDirectory)
            }
            throw .io(error)
        }
        // The folder's own path as well as what is inside it: whoever may rename or replace the folder
        // or a folder above it (or owns a link on the way) chooses what is signed, as an insider would.
        let absolute = FileSystem.absolutePath(extensionDirectory, from: FileSystem.currentDirectory() ?? "/")
        if let refusal = PathTrust.refusal(absolute, userID: userID) { throw .untrustedInput(refusal) }
        var reader = TreeReader(limit: limit, userID: userID)
        try reader.read(root, prefix: "", depth: 0)
        guard let manifestIndex = reader.entries.firstIndex(where: { $0.path == "manifest.json" }) else {
            throw .missingExtension(path: extensionDirectory)
        }
        let manifestPath = extensionDirectory + "/manifest.json"
        let manifestBytes = reader.entries.remove(at: manifestIndex).bytes
        let manifest: JSONValue
        do {
            manifest = try JSONParser.parse(manifestBytes)
        } catch {
            throw .manifest(path: manifestPath, reason: "not JSON (\(error))")
        }
        guard manifest.objectValue != nil else { throw .manifest(path: manifestPath, reason: "not a JSON object") }
        guard let version = manifest["version"]?.stringValue, ExtensionPackage.isVersion(version) else {
            throw .manifest(
                path: manifestPath,
                reason: "\"version\" must be one to four dot-separated numbers from 0 to 65535, like \"1.2.0\"")
        }
        let gecko = manifest["browser_specific_settings"]?["gecko"]
        if let id = gecko?["id"], id.stringValue?.isEmpty != false {
            throw .manifest(path: manifestPath, reason: "browser_specific_settings.gecko.id is not a string")
        }
        let chromium = try chromiumManifest.map { (path) throws(PackError) in
            try ExtensionPackage.chromiumManifest(path, version: version)
        }
        let background = (chromium?.value ?? manifest)["background"]
        if background?["scripts"] != nil && background?["service_worker"]?.stringValue == nil {
            throw .manifest(
                path: chromiumManifest ?? manifestPath,
                reason: "background has scripts but no service_worker (Chromium's Manifest V3 needs one)")
        }
        let packed = Set(reader.entries.map(\.path))
        try ExtensionPackage.checkNamedFiles(
            manifest, manifestPath: manifestPath, packed: packed, leftOut: reader.leftOut)
        if let chromium, let chromiumManifest {
            try ExtensionPackage.checkNamedFiles(
                chromium.value, manifestPath: chromiumManifest, packed: packed, leftOut: reader.leftOut)
        }
        self.chromiumSource = chromium?.value
        self.chromiumManifestBytes = chromium?.bytes
        self.chromiumManifestPath = chromium == nil ? nil : chromiumManifest
        self.files = reader.entries
        self.leftOut = reader.leftOut
        self.manifestBytes = manifestBytes
        self.manifest = manifest
        self.version = version
        self.firefoxID = gecko?["id"]?.stringValue
        self.slug = ExtensionPackage.slug(ExtensionPackage.resolvedName(manifest, files: reader.entries))
    }

    /// The package's file name: `<slug>-<version>.zip`, `.xpi` or `.crx`.
    public func fileName(_ artifact: Artifact) -> String { "\(slug)-\(version).\(artifact.rawValue)" }

    /// The Chrome Web Store upload: the manifest without `key` (the store
    /// refuses it), `browser_specific_settings` and `background.scripts`.
    public func chromeZip() throws(PackError) -> [UInt8] {
        try zip(chromiumManifest(updateURL: nil))
    }

    /// The Firefox package: the manifest without `key`, keeping
    /// `browser_specific_settings.gecko` with `data_collection_permissions`
    /// (`{"required": ["none"]}` when the source has none; addons.mozilla.org
    /// requires it of new add-ons) and, given `updateURL`,
    /// `gecko.update_url` = `updateURL/updates.json`.
    /// - Throws: `PackError.noFirefoxID` when `updateURL` is given and the manifest has no gecko id.
    public func firefoxXPI(updateURL: UpdateURL?) throws(PackError) -> [UInt8] {
        try zip(firefoxManifest(updateURL: updateURL))
    }

    /// The CRX3 signed with `key`: the Chrome Web Store zip, whose manifest
    /// also carries `update_url` = `updateURL/updates.xml` when given. It
    /// installs under `key.chromiumID`, whatever the manifest's `key` says.
    /// - Throws: what `CRX3.make(zip:key:searchPath:)` throws.
    public func crx(key: ExtensionKey, updateURL: UpdateURL?, searchPath: String? = nil) throws(PackError) -> [UInt8] {
        try CRX3.make(zip: zip(chromiumManifest(updateURL: updateURL)), key: key, searchPath: searchPath)
    }

    /// Chromium's `updates.xml` for the CRX signed with `key`, served from `updateURL`.
    public func chromiumUpdateManifest(key: ExtensionKey, updateURL: UpdateURL) -> [UInt8] {
        UpdateManifests.chromium(appID: key.chromiumID, version: version, codebase: updateURL.file(fileName(.crx)))
    }

    /// Firefox's `updates.json` for the XPI served from `updateURL`.
    /// - Throws: `PackError.noFirefoxID` when the manifest has no gecko id.
    public func firefoxUpdateManifest(updateURL: UpdateURL) throws(PackError) -> [UInt8] {
        guard let firefoxID else { throw .noFirefoxID(path: extensionDirectory + "/manifest.json") }
        return UpdateManifests.firefox(
            addonID: firefoxID, version: version, updateLink: updateURL.file(fileName(.firefoxXPI)))
    }

    /// The manifest the zip and the CRX carry.
    public func chromiumManifest(updateURL: UpdateURL?) -> JSONValue {
        let source = chromiumSource ?? manifest
        guard case .object(var members) = source else { return source }
        members["key"] = nil
        members["browser_specific_settings"] = nil
        members["update_url"] = nil
        if case .object(var background)? = members["background"] {
            background["scripts"] = nil
            members["background"] = .object(background)
        }
        if let updateURL { members["update_url"] = .string(updateURL.file("updates.xml")) }
        return .object(members)
    }

    /// The manifest the XPI carries.
    /// - Throws: `PackError.noFirefoxID` when `updateURL` is given and the manifest has no gecko id.
    public func firefoxManifest(updateURL: UpdateURL?) throws(PackError) -> JSONValue {
        guard case .object(var members) = manifest else { return manifest }
        members["key"] = nil
        if updateURL != nil && firefoxID == nil { throw .noFirefoxID(path: extensionDirectory + "/manifest.json") }
        var settings = members["browser_specific_settings"]?.objectValue ?? [:]
        var gecko = settings["gecko"]?.objectValue ?? [:]
        if gecko["data_collection_permissions"] == nil {
            gecko["data_collection_permissions"] = ["required": ["none"]]
        }
        gecko["update_url"] = updateURL.map { .string($0.file("updates.json")) }
        settings["gecko"] = .object(gecko)
        members["browser_specific_settings"] = .object(settings)
        return .object(members)
    }

    private func zip(_ manifest: JSONValue) throws(PackError) -> [UInt8] {
        try ZipArchive.make(files + [ZipArchive.Entry(path: "manifest.json", bytes: JSONWriter.prettyBytes(manifest))])
    }

    /// Chromium's own manifest at `path`: a regular file, a JSON object, of `version`.
    static func chromiumManifest(_ path: String, version: String) throws(PackError) -> (
        value: JSONValue, bytes: [UInt8]
    ) {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(path, noFollow: true, limit: 1 << 20)
        } catch {
            if error.isNotFound { throw .missingExtension(path: path) }
            throw .io(error)
        }
        // It goes into the zip and the CRX as the folder's files do, so the same rule holds.
        if PrivateKeyScan.holdsPrivateKey(bytes) { throw .privateKey(path: path) }
        guard let value = try? JSONParser.parse(bytes), value.objectValue != nil else {
            throw .manifest(path: path, reason: "not a JSON object")
        }
        guard value["version"]?.stringValue == version else {
            throw .manifest(
                path: path,
                reason: "\"version\" is \(value["version"].map { JSONWriter.string($0) } ?? "missing"), not the folder "
                    + "manifest's \(version): give both manifests the same version")
        }
        return (value, bytes)
    }

    /// True for a Chromium/Firefox version string: 1–4 dot-separated integers 0…65535 without leading zeros.
    public static func isVersion(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return false }
        return parts.allSatisfy { part in
            guard !part.isEmpty, part.count <= 5, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let value = Int(part), value <= 65_535
            else { return false }
            return part == "0" || !part.hasPrefix("0")
        }
    }

    /// The manifest's `name`, looked up in `_locales/<default_locale>/messages.json` when it is `__MSG_x__`.
    static func resolvedName(_ manifest: JSONValue, files: [ZipArchive.Entry]) -> String {
        let name = manifest["name"]?.stringValue ?? ""
        guard name.hasPrefix("__MSG_"), name.hasSuffix("__"), name.count > 8,
            let locale = manifest["default_locale"]?.stringValue,
            let messages = files.first(where: { $0.path == "_locales/\(locale)/messages.json" }),
            let json = try? JSONParser.parse(messages.bytes)
        else { return name }
        let key = String(name.dropFirst(6).dropLast(2))
        // Chromium matches message names case-insensitively.
        let entry = json.objectValue?.first { $0.key.lowercased() == key.lowercased() }?.value
        return entry?["message"]?.stringValue ?? name
    }

    /// `ExtensionBridge` → `extension-bridge`, `Read Later!` → `read-later`; `extension` when nothing is left.
    static func slug(_ name: String) -> String {
        var out: [UInt8] = []
        var previousLower = false
        for byte in name.utf8 {
            let isUpper = byte >= 0x41 && byte <= 0x5A
            let isLower = byte >= 0x61 && byte <= 0x7A
            let isDigit = byte >= 0x30 && byte <= 0x39
            if isUpper || isLower || isDigit {
                if isUpper && previousLower && out.last != UInt8(ascii: "-") { out.append(UInt8(ascii: "-")) }
                out.append(isUpper ? byte + 0x20 : byte)
                previousLower = isLower || isDigit
            } else {
                if let last = out.last, last != UInt8(ascii: "-") { out.append(UInt8(ascii: "-")) }
                previousLower = false
            }
            if out.count >= 64 { break }
        }
        while out.last == UInt8(ascii: "-") { out.removeLast() }
        return out.isEmpty ? "extension" : String(decoding: out, as: UTF8.self)
    }

    /// True when `path` is `folder` or below it, both made absolute against `base` (`.` and `..`
    /// resolved as written): an output folder there would have the next `pack` pack the packages.
    public static func isInside(_ path: String, _ folder: String, from base: String) -> Bool {
        let inner = FileSystem.absolutePath(path, from: base).split(separator: "/")
        let outer = FileSystem.absolutePath(folder, from: base).split(separator: "/")
        return inner.count >= outer.count && Array(inner.prefix(outer.count)) == outer
    }
}

/// Walks an extension folder through `Directory` (every name opened relative
/// to its folder, never through a link), collecting the files to pack.
private struct TreeReader {
    let limit: Int
    let userID: UInt32
    var total = 0
    var entries: [ZipArchive.Entry] = []
    var leftOut: [String] = []

    init(limit: Int, userID: UInt32) {
        self.limit = limit
        self.userID = userID
    }

    mutating func read(_ folder: Directory, prefix: String, depth: Int) throws(PackError) {
        guard depth <= PackLimits.depth else { throw .tooLarge(path: folder.path, limit: limit) }
        let names: [String]
        do {
            names = try folder.list().sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        } catch {
            throw .io(error)
        }
        for name in names {
            if name.hasPrefix(".") { continue }
            if prefix.isEmpty && ExtensionPackage.excludedAtTop.contains(name) {
                let isFolder = (try? folder.status(name))??.isDirectory ?? false
                leftOut.append(isFolder ? name + "/" : name)
                continue
            }
            let path = prefix + name
            let shown = folder.path + "/" + name
            try ZipArchive.check(path)
            let status: FileStatus?
            do {
                status = try folder.status(name)
            } catch {
                throw .io(error)
            }
            guard let status else { continue }  // gone since the listing
            if status.isSymbolicLink { throw .symbolicLink(path: shown) }
            // What is signed and packed runs in the user's browser (and, packaged, in every user's): a file
            // or folder another user may write is one whose code they could have put there.
            if let refusal = PathTrust.refusal(of: status, at: shown, userID: userID) { throw .untrustedInput(refusal) }
            if status.isDirectory {
                let sub: Directory
                do {
                    sub = try folder.subdirectory(name)
                } catch {
                    throw error.code == Errno.tooManyLinks ? .symbolicLink(path: shown) : .io(error)
                }
                try read(sub, prefix: path + "/", depth: depth + 1)
                continue
            }
            guard status.isRegular else { throw .notRegularFile(path: shown) }
            // Refused, not left out: leaving it out would drop a file silently, and it holds edits not merged yet.
            if name.hasSuffix(".orig") { throw .keptCopy(path: shown) }
            guard entries.count < PackLimits.entries, status.size <= Int64(limit - total) else {
                throw .tooLarge(path: shown, limit: limit)
            }
            let bytes: [UInt8]
            do {
                bytes = try folder.readFile(name, limit: limit - total + 1).bytes
            } catch {
                if error.code == Errno.tooManyLinks { throw .symbolicLink(path: shown) }
                if error.code == Errno.invalidArgument || error.code == Errno.isDirectory {
                    throw .notRegularFile(path: shown)
                }
                throw .io(error)
            }
            total += bytes.count
            guard total <= limit else { throw .tooLarge(path: shown, limit: limit) }
            // A store upload publishes every file: a signing key kept beside the extension would be
            // published with it, and with it the extension's identity.
            if PrivateKeyScan.holdsPrivateKey(bytes) { throw .privateKey(path: shown) }
            entries.append(ZipArchive.Entry(path: path, bytes: bytes))
        }
    }
}
