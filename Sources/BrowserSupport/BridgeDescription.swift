import BridgeJSON
import BridgeProtocol
import BridgeSystem

/// A bridge project's description, `bridge.json`, written by
/// `extension-bridge new` and read by `install`, `uninstall` and `doctor`
/// with `--config`:
///
/// ```json
/// {"formatVersion": 1, "name": "ReadLater", "hostName": "com.example.readlater",
///  "group": "group.com.example.readlater", "hostProduct": "readlater-host", "version": "1.0.0",
///  "extension": {"folder": "extension", "chromiumID": "…", "firefoxID": "readlater@example.com"},
///  // a Manifest V2 import also: "chromiumManifest": "extension-chromium/manifest.json"
///  "features": ["vocabulary", "saving", "transform", "secrets"]}
/// ```
///
/// Relative paths are relative to the file's folder.
public struct BridgeDescription: Equatable, Sendable {
    public static let formatVersion = 1

    public var name: String
    public var hostName: String
    public var group: String
    /// The host executable's name (the Swift product).
    public var hostProduct: String
    public var version: String
    /// The extension folder, absolute once loaded.
    public var extensionFolder: String
    /// Chromium's own manifest, when the extension has one beside the folder's (a Manifest V2
    /// extension imported with `new --from-safari`: Firefox's `manifest.json` stays Manifest V2,
    /// Chromium's is Manifest V3); absolute once loaded. `pack` and `install --crx` make Chromium's
    /// packages with it.
    public var chromiumManifest: String?
    public var chromiumID: String
    public var firefoxID: String
    /// Who maintains the app's package: `Name <email>` (its Debian `Maintainer`); optional.
    public var maintainer: String?
    /// The app's copyright line for its package (`2026 Example Ltd`); optional.
    public var copyright: String?
    /// The extension's features (`new --features`), in the canonical order; a file without
    /// `"features"` (written before there were features) has them all. `upgrade` makes the
    /// manifest from them.
    public var features: [ExtensionFeature] = ExtensionFeature.all

    public init(
        name: String, hostName: String, group: String, hostProduct: String, version: String, extensionFolder: String,
        chromiumID: String, firefoxID: String
    ) {
        self.name = name
        self.hostName = hostName
        self.group = group
        self.hostProduct = hostProduct
        self.version = version
        self.extensionFolder = extensionFolder
        self.chromiumID = chromiumID
        self.firefoxID = firefoxID
    }

    /// What an app's `name` must be, for `new` and in bridge.json alike: packages, the host and the
    /// project's folder are named after it, so it is no path and holds nothing a terminal reorders.
    public static let nameRule =
        "a Swift identifier: an ASCII letter, then letters, digits or '_' (at most 64), for example ReadLater"

    /// Whether `name` follows `nameRule`.
    public static func isAppName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        func isLetter(_ b: UInt8) -> Bool { (b >= 65 && b <= 90) || (b >= 97 && b <= 122) }
        guard let first = bytes.first, isLetter(first), bytes.count <= 64 else { return false }
        return bytes.allSatisfy { isLetter($0) || ($0 >= 48 && $0 <= 57) || $0 == UInt8(ascii: "_") }
    }

    /// The app's one name in files and packages: its name in lower case (`ReadLater` → `readlater`), as
    /// in the host executable (`readlater-host`) and the store packages (`readlater-1.0.0.crx`).
    public var fileName: String { name.lowercased() }
    /// The Debian package's name: `fileName` where Debian allows it, `_` as `-` (`readlater`).
    public var debianName: String { BridgeDescription.debianName(fileName) }

    /// `name` with `_`, which Debian package names may not hold, as `-`.
    public static func debianName(_ name: String) -> String {
        String(name.map { $0 == "_" ? "-" : $0 })
    }

    /// The ids `install` allows and `doctor` checks.
    public var identity: ExtensionIdentity { ExtensionIdentity(chromiumIDs: [chromiumID], firefoxIDs: [firefoxID]) }

    /// The file's JSON, with `extensionFolder` as given (write it relative).
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "formatVersion": .int(BridgeDescription.formatVersion), "name": .string(name),
            "hostName": .string(hostName), "group": .string(group), "hostProduct": .string(hostProduct),
            "version": .string(version),
        ]
        var extensionMembers: [String: JSONValue] = [
            "folder": .string(extensionFolder), "chromiumID": .string(chromiumID), "firefoxID": .string(firefoxID),
        ]
        if let chromiumManifest { extensionMembers["chromiumManifest"] = .string(chromiumManifest) }
        members["extension"] = .object(extensionMembers)
        if let maintainer { members["maintainer"] = .string(maintainer) }
        if let copyright { members["copyright"] = .string(copyright) }
        members["features"] = .array(features.map { .string($0.rawValue) })
        return .object(members)
    }

    /// Reads `path`; relative folders become absolute against its folder.
    /// - Throws: `InstallError.bridgeConfig` naming the file and what is wrong.
    public static func load(_ path: String) throws(InstallError) -> BridgeDescription {
        let json: JSONValue
        do {
            json = try JSONParser.parse(FileSystem.readFile(path, limit: 1 << 20))
        } catch let error as SystemError {
            throw .bridgeConfig(path: path, reason: error.description)
        } catch {
            throw .bridgeConfig(path: path, reason: "not JSON (\(error))")
        }
        var description = try parse(json, path: path)
        try description.validate(path: path)
        let folder = FileSystem.parentPath(
            path.hasPrefix("/") ? path : (FileSystem.currentDirectory() ?? ".") + "/" + path)
        if !description.extensionFolder.hasPrefix("/") {
            description.extensionFolder = folder + "/" + description.extensionFolder
        }
        if let manifest = description.chromiumManifest, !manifest.hasPrefix("/") {
            description.chromiumManifest = folder + "/" + manifest
        }
        try description.checkChromiumKey(path: path)
        return description
    }

    /// The description `json` holds, its values as written (`validate` checks them).
    static func parse(_ json: JSONValue, path: String) throws(InstallError) -> BridgeDescription {
        let version = json["formatVersion"]?.intValue ?? 0
        guard version >= 1 else { throw .bridgeConfig(path: path, reason: "no formatVersion") }
        guard version <= formatVersion else {
            throw .bridgeConfig(
                path: path, reason: "formatVersion \(version) is newer than this extension-bridge reads; upgrade it")
        }
        func string(_ value: JSONValue?, _ key: String) throws(InstallError) -> String {
            guard let text = value?.stringValue, !text.isEmpty else {
                throw .bridgeConfig(path: path, reason: "\"\(key)\" is missing or not a string")
            }
            return text
        }
        var description = BridgeDescription(
            name: try string(json["name"], "name"), hostName: try string(json["hostName"], "hostName"),
            group: try string(json["group"], "group"), hostProduct: try string(json["hostProduct"], "hostProduct"),
            version: json["version"]?.stringValue ?? "0",
            extensionFolder: try string(json["extension"]?["folder"], "extension.folder"),
            chromiumID: try string(json["extension"]?["chromiumID"], "extension.chromiumID"),
            firefoxID: try string(json["extension"]?["firefoxID"], "extension.firefoxID"))
        if let manifest = json["extension"]?["chromiumManifest"] {
            description.chromiumManifest = try string(manifest, "extension.chromiumManifest")
        }
        description.maintainer = json["maintainer"]?.stringValue
        description.copyright = json["copyright"]?.stringValue
        if let features = json["features"] { description.features = try parseFeatures(features, path: path) }
        return description
    }

    /// `"features"`: a list of feature names, in the canonical order. An empty list is an import's
    /// (`new --from-safari`): its extension is the author's, not the bundled one the features are of.
    static func parseFeatures(_ features: JSONValue, path: String) throws(InstallError) -> [ExtensionFeature] {
        guard let names = features.arrayValue?.compactMap(\.stringValue), names.count == features.arrayValue?.count
        else {
            throw .bridgeConfig(
                path: path, reason: "\"features\" is not a list of feature names (\(ExtensionFeature.knownNames))")
        }
        var chosen: Set<ExtensionFeature> = []
        for name in names {
            guard let feature = ExtensionFeature(rawValue: name) else {
                throw .bridgeConfig(
                    path: path,
                    reason: "\"features\" names '\(HostConfiguration.UnsafeValue.shown(name))', not a feature "
                        + "(\(ExtensionFeature.knownNames))")
            }
            chosen.insert(feature)
        }
        return ExtensionFeature.allCases.filter(chosen.contains)
    }

    /// Every value that reaches a manifest, the host's configuration or a path is checked here, at
    /// load, so `install`, `uninstall` and `doctor` never act on a description that could not be written.
    func validate(path: String) throws(InstallError) {
        guard BridgeDescription.isAppName(name) else {
            throw .bridgeConfig(
                path: path,
                reason: "name '\(HostConfiguration.UnsafeValue.shown(name))' is not \(BridgeDescription.nameRule) "
                    + "(pack names its files after it)")
        }
        try HostManifest.validate(name: hostName)
        guard hostName != HostIdentity.defaultHostName else {
            throw .bridgeConfig(
                path: path,
                reason:
                    "hostName \(HostIdentity.defaultHostName) is the built-in bridge's; a bridge.json names its own "
                    + "host (extension-bridge new refuses this name too), and the built-in one is installed without "
                    + "--config")
        }
        if let reason = DebianPackage.reservedUse(of: hostName) {
            throw .bridgeConfig(
                path: path,
                reason: "hostName \(hostName): \(reason) (a system install puts the host in "
                    + "/usr/lib/\(hostName)); name the host in reverse-DNS form (com.example.app)")
        }
        guard HostIdentity.isGroupID(group) else {
            throw .bridgeConfig(
                path: path,
                reason: "group '\(HostConfiguration.UnsafeValue.shown(group))' is not a group id (letters, "
                    + "digits, '.', '-' and '_', not starting with '.' or '-')")
        }
        guard ExtensionIdentity.isChromiumID(chromiumID) else {
            throw .bridgeConfig(path: path, reason: "extension.chromiumID is not 32 letters a–p")
        }
        guard ExtensionIdentity.isFirefoxID(firefoxID) else {
            throw .bridgeConfig(
                path: path,
                reason: "extension.firefoxID '\(HostConfiguration.UnsafeValue.shown(firefoxID))' is not a "
                    + "Firefox add-on id (name@domain or {GUID})")
        }
        // A file name by the same plain rule as a group id (no '/', no leading '.' or '-').
        guard HostIdentity.isGroupID(hostProduct) else {
            throw .bridgeConfig(
                path: path,
                reason: "hostProduct must be a plain file name: letters, digits, '.', '-' and '_', not starting with "
                    + "'.' or '-'")
        }
    }

    /// Refuses a `chromiumID` that the `key` of the manifest Chromium loads does not give. Chromium
    /// names the extension by its key alone: with another id here, install would allow a caller that
    /// is not this extension and the host would refuse the one that is. A manifest that is not there
    /// yet, or has no key, is left to the command that needs it.
    func checkChromiumKey(path: String) throws(InstallError) {
        let manifestPath = chromiumManifest ?? extensionFolder + "/manifest.json"
        guard let bytes = try? FileSystem.readFile(manifestPath, limit: 1 << 20),
            let manifest = try? JSONParser.parse(bytes), let key = manifest["key"]?.stringValue,
            let keyID = ExtensionIdentity.chromiumID(fromKey: key), keyID != chromiumID
        else { return }
        throw .bridgeConfig(
            path: path,
            reason: "extension.chromiumID is \(chromiumID), but the \"key\" in \(manifestPath) gives the Chromium id "
                + "\(keyID): Chromium names the extension by its key, so the host would allow a caller that is not "
                + "this extension; set extension.chromiumID to \(keyID) (or put the key of \(chromiumID) in the "
                + "manifest)")
    }

    /// Reads `path` as `load` does, after holding the project to `PathTrust`'s rule (the rule for the
    /// host binary): bridge.json names the extensions the host serves and the group they reach, the
    /// extension folder is what `--crx` and `pack` sign, and `keys/` holds the key they sign with. A
    /// project another user can write is one where they choose all three.
    /// - Throws: `InstallError.untrustedProject` naming the path that fails and the fix, then what
    ///   `load` throws.
    public static func loadTrusted(_ path: String, userID: UInt32 = Platform.effectiveUserID) throws(InstallError)
        -> BridgeDescription
    {
        let absolute = FileSystem.absolutePath(path, from: FileSystem.currentDirectory() ?? "/")
        if let refusal = PathTrust.refusal(absolute, userID: userID) { throw .untrustedProject(refusal) }
        let description = try load(absolute)
        // A folder not there yet is not this check's to report: the command that needs it says so.
        let folders = [description.extensionFolder, FileSystem.parentPath(absolute) + "/keys"].filter {
            (try? FileSystem.status($0)) != nil
        }
        for folder in folders {
            if let refusal = PathTrust.refusal(folder, userID: userID) { throw .untrustedProject(refusal) }
        }
        return description
    }
}
