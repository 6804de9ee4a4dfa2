import BridgeJSON
import BrowserSupport

/// One import's work: the author's files and manifest, what is added beside
/// them, the manifest(s) the browsers get, and the report. Each step is an
/// extension of its own (`+Identity`, `+Background`, `+Pages`, `+Chromium`,
/// `SafariPaths`, `+Scans`); `SafariImport.extensionFiles` runs them in order.
///
/// A Manifest V3 extension gets one manifest that both browsers load. A
/// Manifest V2 one keeps its Manifest V2 manifest for Firefox (which runs it
/// as Safari does) and gets a Manifest V3 one derived from it for Chromium
/// (which runs only Manifest V3), in its own folder (`chromiumFolder`).
struct SafariAdaptation {
    let spec: ProjectSpec
    let key: ExtensionKey
    /// The author's files as read, in order (never changed).
    let authorFiles: [GeneratedFile]
    /// Every file of the extension by path: the author's and those placed or generated since.
    var files: [String: [UInt8]]
    /// Files added to the author's (placed copies, generated pages, the entry, ExtensionBridge's).
    var added: [GeneratedFile] = []
    /// The manifest Firefox loads (and Chromium, for a Manifest V3 extension).
    var manifest: [String: JSONValue]
    /// Chromium's manifest, derived for a Manifest V2 extension; nil for Manifest V3.
    var chromium: [String: JSONValue]?
    /// The author's `manifest_version`: 2 or 3.
    let version: Int
    /// The author's manifest text, to say on which line a key is.
    let manifestBytes: [UInt8]
    var roles: SafariScriptRoles
    /// Chromium's service worker, once the background is adapted.
    var entryPath: String?
    var report = SafariImport.Report()

    init(files: [GeneratedFile], spec: ProjectSpec, key: ExtensionKey) throws(GeneratorError) {
        guard let manifestFile = files.first(where: { $0.path == "manifest.json" }) else {
            throw .missing("the imported folder has no manifest.json")
        }
        let (object, tolerated, duplicates) = try SafariManifest.parse(manifestFile.bytes)
        let version = object["manifest_version"]?.intValue
        guard let version, version == 2 || version == 3 else {
            let shown = object["manifest_version"].map { JSONWriter.string($0) } ?? "none"
            throw .invalid(
                "manifest.json has manifest_version \(DisplayText.escaped(shown)); Safari, Chromium and Firefox run "
                    + "versions 2 and 3 only: fix it there")
        }
        self.spec = spec
        self.key = key
        self.authorFiles = files
        self.files = Dictionary(files.map { ($0.path, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        self.manifest = object
        self.version = version
        self.manifestBytes = manifestFile.bytes
        self.roles = SafariScriptRoles(manifest: object, files: [:])
        if !tolerated.isEmpty {
            report.change(
                "manifest.json: removed \(tolerated.joined(separator: " and ")) (Safari accepts them; the manifest is "
                    + "written back as plain JSON)")
        }
        for duplicate in duplicates {
            report.find(
                "manifest.json", duplicate.line, "the key \"\(duplicate.path)\" more than once", .differs,
                "Chromium and Firefox keep its last value and drop the others without a word, and so does this "
                    + "import: keep one \"\(duplicate.path)\" with the value you mean")
        }
        if version == 2 {
            report.change(
                "manifest.json is Manifest V2: Firefox runs it as Safari does (extension/manifest.json); Chromium "
                    + "runs only Manifest V3, so it gets one derived from it in \(SafariImport.chromiumFolder)/ "
                    + "(load that folder in Chromium)")
        }
    }

    /// Adds a file beside the author's (a placed copy, a generated page, ExtensionBridge's).
    mutating func add(_ file: GeneratedFile) {
        added.removeAll { $0.path == file.path }
        added.append(file)
        files[file.path] = file.bytes
    }

    /// The line of the author's manifest where `"key"` first appears (0 when it does not).
    func manifestLine(_ key: String) -> Int {
        let needle = Array("\"\(key)\"".utf8)
        guard let at = SafariReferences.firstIndex(of: needle, in: manifestBytes, from: 0) else { return 0 }
        return SafariManifest.position(of: at, in: manifestBytes).line
    }

    /// The manifests to change for what both browsers load: Firefox's, and Chromium's when it has its own.
    mutating func forEachManifest(_ body: (inout [String: JSONValue]) -> Void) {
        body(&manifest)
        if var other = chromium {
            body(&other)
            chromium = other
        }
    }

    /// What the project gets: `extension/`'s files (relative to it), the project's other files (a
    /// Manifest V2 extension's Chromium folder), and the report.
    func output() -> (extension: [GeneratedFile], project: [GeneratedFile]) {
        var out: [GeneratedFile] = []
        for file in authorFiles {
            out.append(
                file.path == "manifest.json"
                    ? GeneratedFile("manifest.json", JSONWriter.prettyBytes(.object(manifest))) : file)
        }
        out += added
        guard let chromium else { return (out, []) }
        var project = [
            GeneratedFile(SafariImport.chromiumFolder + "/manifest.json", JSONWriter.prettyBytes(.object(chromium)))
        ]
        var topLevel: [String] = []
        for file in out where file.path != "manifest.json" {
            let first = String(file.path.prefix { $0 != "/" })
            if !topLevel.contains(first) { topLevel.append(first) }
        }
        for name in topLevel.sorted() {
            project.append(GeneratedFile(link: SafariImport.chromiumFolder + "/" + name, to: "../extension/" + name))
        }
        return (out, project)
    }
}

extension SafariImport {
    /// What an import writes: `extension/`'s files, other project files, the report.
    public struct Imported: Equatable, Sendable {
        /// The extension's files, relative to `extension/`.
        public var extensionFiles: [GeneratedFile]
        /// Files elsewhere in the project, relative to it (a Manifest V2 extension's Chromium folder).
        public var projectFiles: [GeneratedFile]
        public var report: Report
    }
}

extension SafariImport.Imported {
    /// The project around the imported extension completed: the Chromium folder, `bridge.json` naming
    /// its manifest, the actions of the native messages found (`SafariMessageActions`).
    func completing(_ project: [GeneratedFile], spec: ProjectSpec) -> [GeneratedFile] {
        var files = project + projectFiles
        let chromium = SafariImport.chromiumFolder + "/manifest.json"
        if projectFiles.contains(where: { $0.path == chromium }),
            let index = files.firstIndex(where: { $0.path == "bridge.json" }),
            case .object(var description)? = try? JSONParser.parse(files[index].bytes),
            case .object(var folder)? = description["extension"]
        {
            folder["chromiumManifest"] = .string(chromium)
            description["extension"] = .object(folder)
            files[index] = GeneratedFile("bridge.json", JSONWriter.prettyBytes(.object(description)))
        }
        return SafariMessageActions.adding(report.messages, to: files, spec: spec)
    }
}

extension SafariImport {
    /// The project's extension, adapted for Chromium and Firefox, and the report.
    /// - Parameters:
    ///   - bundled: the bundled extension's files (for `compat/`).
    /// - Throws: `GeneratorError.invalid` (65) for a manifest that cannot be adapted (not JSON, with
    ///   its line and column; a version other than 2 or 3; a background outside the folder).
    public func extensionFiles(spec: ProjectSpec, key: ExtensionKey, bundled: [GeneratedFile])
        throws(GeneratorError) -> Imported
    {
        let compat = try SafariImport.compatFiles(hostName: spec.hostName, bundled: bundled)
        var work = try SafariAdaptation(files: files, spec: spec, key: key)
        work.placeMissingFiles()
        work.roles = SafariScriptRoles(manifest: work.manifest, files: work.files)
        work.checkNamedReferences()
        try work.adaptIdentity()
        try work.adaptBackground()
        work.wrapPages()
        work.adaptForChromium()
        work.adaptContentScripts()
        for file in compat { work.add(file) }
        work.scan()
        let (extensionFiles, projectFiles) = work.output()
        var report = work.report
        report.change(
            "added ExtensionBridge's \(SafariImport.compatFolder)/ (upgrade replaces it)"
                + (work.entryPath.map { " and \(DisplayText.escaped($0)) (yours: it lists your background scripts)" }
                    ?? ""))
        report.change("copied your \(files.count - 1) other file\(files.count == 2 ? "" : "s") byte for byte")
        return Imported(extensionFiles: extensionFiles, projectFiles: projectFiles, report: report)
    }
}
