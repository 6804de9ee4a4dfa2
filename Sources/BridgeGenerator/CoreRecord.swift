import BridgeJSON
import BridgeSystem
import BrowserSupport

/// What generation wrote of ExtensionBridge's core into a project:
/// `.extension-bridge/core.json`, generated and committed with the project.
///
/// ```json
/// {"formatVersion": 1,
///  "extensionBridge": {"version": "0.1.0", "carried": "ExtensionBridge"},
///  "files": {"Package.swift": "<sha-256 hex>", "extension/manifest.json": "…", …}}
/// ```
///
/// `extensionBridge` names the version whose bundled extension, templates and
/// libraries wrote the core, and the dependency `Package.swift` was given
/// (`carried`: the folder holding the libraries; or `url` with `exact`). A
/// record written before projects carried their libraries says `path` (an
/// absolute folder of the author's machine): read as `carried`, which is what
/// `upgrade` moves such a project to. `files` holds each core file's fingerprint as written
/// (`fingerprint(path:bytes:)`): a file whose fingerprint differs now is one
/// the app edited. The record lives here and not in `bridge.json`, which is
/// the app's (its version, maintainer, ids) and stays byte-identical across
/// an upgrade.
public struct CoreRecord: Equatable, Sendable {
    public static let formatVersion = 1
    /// Where the record lives, relative to the project folder.
    public static let path = ".extension-bridge/core.json"

    /// The ExtensionBridge version that wrote the core files.
    public var version: String
    /// The dependency `Package.swift` names.
    public var dependency: ProjectSpec.Dependency
    /// Core file (relative path) → `fingerprint`, lowercase hex.
    public var files: [String: String]
    /// The project's extension was imported from Safari (`new --from-safari`): `"extension":
    /// "safari-import"`. Its extension is the app's but for `ProjectOwnership.importedCoreFiles`.
    public var safariImport: Bool

    /// The value of `"extension"` for an imported extension.
    public static let safariImportMarker = "safari-import"

    public init(
        version: String, dependency: ProjectSpec.Dependency, files: [String: String], safariImport: Bool = false
    ) {
        self.version = version
        self.dependency = dependency
        self.files = files
        self.safariImport = safariImport
    }

    /// The record of `coreFiles` as written.
    public init(
        version: String, dependency: ProjectSpec.Dependency, coreFiles: [GeneratedFile], safariImport: Bool = false
    ) {
        var files: [String: String] = [:]
        for file in coreFiles { files[file.path] = CoreRecord.fingerprint(path: file.path, bytes: file.bytes) }
        self.init(version: version, dependency: dependency, files: files, safariImport: safariImport)
    }

    /// The SHA-256 of a core file's bytes, in hex. The manifest's `version`
    /// is the app's (it bumps it for every release), so it is left out of the
    /// manifest's fingerprint: the manifest parsed, its `version` emptied,
    /// written back the way generation writes it.
    public static func fingerprint(path: String, bytes: [UInt8]) -> String {
        if path == ProjectOwnership.manifestPath, case .object(var members)? = try? JSONParser.parse(bytes) {
            members["version"] = .string("")
            return FileSystem.hex(SHA256.digest(JSONWriter.prettyBytes(.object(members))))
        }
        return FileSystem.hex(SHA256.digest(bytes))
    }

    /// The file's JSON.
    public var json: JSONValue {
        var source: [String: JSONValue] = ["version": .string(version)]
        switch dependency {
        case .carried: source["carried"] = .string(CarriedSource.folder)
        case .url(let url, let exact):
            source["url"] = .string(url)
            source["exact"] = .string(exact)
        }
        var json: [String: JSONValue] = [
            "formatVersion": .int(CoreRecord.formatVersion), "extensionBridge": .object(source),
            "files": .object(files.mapValues(JSONValue.string)),
        ]
        if safariImport { json["extension"] = .string(CoreRecord.safariImportMarker) }
        return .object(json)
    }

    /// Reads a record, refusing what upgrade must not act on: a newer
    /// format, a path that is not a plain relative path inside the project
    /// (`..`, absolute, empty parts), a path that is not core (`keys/`,
    /// `bridge.json`, `extension/app/`), a fingerprint that is not SHA-256 hex.
    /// - Throws: `GeneratorError.invalid` (exit 65) naming the value.
    public static func parse(_ bytes: [UInt8], shownAs name: String = CoreRecord.path) throws(GeneratorError)
        -> CoreRecord
    {
        guard let json = try? JSONParser.parse(bytes), json.objectValue != nil else {
            throw .invalid("\(name) is not a JSON object; restore it from version control")
        }
        let format = json["formatVersion"]?.intValue ?? 0
        guard format >= 1 else { throw .invalid("\(name) has no formatVersion") }
        guard format <= formatVersion else {
            throw .invalid(
                "\(name) has formatVersion \(format), newer than this extension-bridge reads (\(formatVersion)); "
                    + "use the extension-bridge that wrote it, or a newer one")
        }
        guard let source = json["extensionBridge"], let version = source["version"]?.stringValue,
            SemanticVersion(version) != nil
        else { throw .invalid("\(name): extensionBridge.version is missing or not a version (1.2.3)") }
        let dependency: ProjectSpec.Dependency
        if source["carried"]?.stringValue == CarriedSource.folder {
            dependency = .carried
        } else if let path = source["path"]?.stringValue, path.hasPrefix("/") {
            dependency = .carried  // made before projects carried their libraries: upgrade carries them
        } else if let url = source["url"]?.stringValue, let exact = source["exact"]?.stringValue {
            dependency = .url(url, exact: exact)
        } else {
            throw .invalid(
                "\(name): extensionBridge has neither \"carried\": \"\(CarriedSource.folder)\", an absolute path, "
                    + "nor a url with exact")
        }
        var safariImport = false
        if let origin = json["extension"] {
            guard origin.stringValue == safariImportMarker else {
                throw .invalid(
                    "\(name): \"extension\" is not \"\(safariImportMarker)\"; restore it from version control, or use "
                        + "a newer extension-bridge")
            }
            safariImport = true
        }
        guard let members = json["files"]?.objectValue else { throw .invalid("\(name): files is not an object") }
        var files: [String: String] = [:]
        for (path, value) in members {
            let shown = DisplayText.escaped(path)
            guard ProjectPath.isPlainRelative(path) else {
                throw .invalid(
                    "\(name) lists '\(shown)', which is not a plain relative path inside the project; "
                        + "upgrade writes nothing outside it")
            }
            guard ProjectOwnership.isCore(path) else {
                throw .invalid(
                    "\(name) lists '\(shown)', which is the app's, not ExtensionBridge's; upgrade never touches it")
            }
            guard let hash = value.stringValue, hash.utf8.count == 64,
                hash.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) })
            else { throw .invalid("\(name): the fingerprint of \(shown) is not SHA-256 hex") }
            files[path] = hash
        }
        return CoreRecord(version: version, dependency: dependency, files: files, safariImport: safariImport)
    }
}
