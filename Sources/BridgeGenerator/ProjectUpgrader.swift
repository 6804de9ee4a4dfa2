import BridgeJSON
import BridgeSystem
import BrowserSupport

/// Moves a generated project to a newer ExtensionBridge: its core files
/// regenerated from the newer bundled extension and templates with the app's
/// own values (name, host name, group, version, the public key already in
/// its manifest, its Firefox id), the carried libraries replaced with the
/// newer ones, the dependency moved, the record rewritten; the app's files,
/// `bridge.json` and `keys/` untouched (the private key is never read).
/// A Swift target the newer `Package.swift` declares whose folder the project
/// does not have yet (the app target, the Safari handler's library, for a
/// project made before them) gets the template's files, which are the app's
/// from then on.
public struct ProjectUpgrader {
    /// The project folder, absolute.
    public var project: String
    /// The newer bundled extension (`ProjectWriter.readTree`).
    public var extensionFiles: [GeneratedFile]
    /// The newer ExtensionBridge's libraries, and its version.
    public var carried: CarriedSource
    /// The newer ExtensionBridge's version.
    public var bridgeVersion: String { carried.version }
    /// The dependency `Package.swift` gets (`dependency(recorded:…)`).
    public var dependency: ProjectSpec.Dependency
    /// Write edited core files anyway, keeping the app's copy as `FILE.orig`.
    public var force: Bool
    /// The core files earlier templates wrote and this one does not (`ProjectOwnership.retiredCoreFiles`):
    /// the only recorded files upgrade may remove. Tests name one an older core had.
    public var retiredCoreFiles = ProjectOwnership.retiredCoreFiles
    /// Renames a file; tests inject a failing one to check the rollback.
    public var move: (String, String) throws(SystemError) -> Void = { (a, b) throws(SystemError) in
        try FileSystem.move(a, b)
    }

    /// Folders never listed as the app's files: builds, version control, the record's own folder.
    static let skippedFolders: Set<String> = [".build", ".git", ".swiftpm", "node_modules", ".extension-bridge"]

    public init(
        project: String, extensionFiles: [GeneratedFile], carried: CarriedSource, dependency: ProjectSpec.Dependency,
        force: Bool
    ) {
        self.project = project
        self.extensionFiles = extensionFiles
        self.carried = carried
        self.dependency = dependency
        self.force = force
    }

    /// The dependency after upgrade: the one asked for; else, for a project on a published
    /// ExtensionBridge, the same URL pinned to `version`; else the carried libraries (also for a
    /// project that named an absolute source folder before projects carried them).
    public static func dependency(recorded: CoreRecord?, packageURL: String?, version: String)
        -> ProjectSpec.Dependency
    {
        if let packageURL { return .url(packageURL, exact: version) }
        if case .url(let url, _)? = recorded?.dependency { return .url(url, exact: version) }
        return .carried
    }

    /// Reads the project's record; nil when it has none (made before upgrade existed).
    public static func record(in project: String) throws(GeneratorError) -> CoreRecord? {
        switch state(CoreRecord.path, in: project) {
        case .missing: return nil
        case .notRegular(let what):
            throw .invalid("\(project)/\(CoreRecord.path) is not a regular file (\(what)); restore it")
        case .file(let bytes): return try CoreRecord.parse(bytes, shownAs: project + "/" + CoreRecord.path)
        }
    }

    /// Works out the upgrade, writing nothing.
    /// - Throws: `GeneratorError.missing` (66) for a folder that is not a project, or one without
    ///   `core.json` unless `force`; `.invalid` (65) for a record from a newer ExtensionBridge, a core
    ///   path that is a link, a key that does not give bridge.json's Chromium id, or edited core files
    ///   (each named) unless `force`.
    public func plan() throws(GeneratorError) -> UpgradePlan {
        guard (try? FileSystem.status(project, followLinks: true))??.isDirectory == true else {
            throw .missing("\(project) is not a folder")
        }
        guard case .file = ProjectUpgrader.state("bridge.json", in: project) else {
            throw .missing(
                "\(project) is not an extension-bridge project: it has no bridge.json (extension-bridge new writes "
                    + "one); pass --dir PROJECT")
        }
        let description: BridgeDescription
        do {
            description = try BridgeDescription.load(project + "/bridge.json")
        } catch {
            throw .invalid(error.description)
        }
        let recorded = try ProjectUpgrader.record(in: project)
        if recorded == nil && !force {
            throw .missing(
                "\(project) has no \(CoreRecord.path): it was generated before upgrade existed, so upgrade cannot "
                    + "tell your edits from ExtensionBridge's files; commit your work and pass --force, which keeps "
                    + "every core file that differs from the new one as FILE.orig")
        }
        guard let newer = SemanticVersion(bridgeVersion) else {
            throw .invalid("this ExtensionBridge's version '\(bridgeVersion)' is not a semantic version")
        }
        if let recorded, let older = SemanticVersion(recorded.version), newer < older {
            throw .invalid(
                "\(project) was made by ExtensionBridge \(recorded.version), newer than this one (\(bridgeVersion)); "
                    + "upgrade never downgrades: use extension-bridge \(recorded.version) or newer")
        }
        let spec = try appSpec(description)
        try spec.checkPin(templates: bridgeVersion)
        let key = try publicKey(description)
        // An imported Safari extension is the app's: only the project's files and bridge-compat/'s two.
        // The shim on disk says the extension was imported, whatever the record says (or without one).
        let safariImport =
            recorded?.safariImport == true
            || ProjectUpgrader.state("extension/" + SafariImport.shimPath, in: project) != .missing
        let files =
            safariImport
            ? try ProjectTemplate.safariImportCore(
                spec: spec, key: key, extensionFiles: extensionFiles, carried: carried)
            : try ProjectTemplate.files(spec: spec, key: key, extensionFiles: extensionFiles, carried: carried)
        let newCore = ProjectOwnership.coreFiles(files, safariImport: safariImport)
        let newAppFiles =
            files.filter { $0.path.hasPrefix(ProjectOwnership.appFolder) } + newTargetFiles(files)
        let record = CoreRecord(
            version: bridgeVersion, dependency: spec.dependency, coreFiles: newCore, safariImport: safariImport)
        var found: [String: UpgradePlan.Found] = [:]
        // What a template owns: the newer core, and recorded files an earlier core had and this one dropped
        // (a listed retired file, or any in the carried libraries' folder, which is ExtensionBridge's whole).
        let recordedPaths = recorded.map { Array($0.files.keys) } ?? []
        let retired = retiredCoreFiles.union(recordedPaths.filter(ProjectOwnership.isCarried))
            .filter { ProjectOwnership.isCore($0, safariImport: safariImport) }
        let owned = Set(newCore.map(\.path)).union(recordedPaths.filter(retired.contains))
        for path in owned.union(newAppFiles.map(\.path)) { found[path] = ProjectUpgrader.state(path, in: project) }
        let appFiles = listFiles().filter { !owned.contains($0) }
        let plan = try UpgradePlan.make(
            recorded: recorded, found: found, newCore: newCore, newAppFiles: newAppFiles, appFiles: appFiles,
            record: record, retired: retired)
        if !plan.edited.isEmpty && !force {
            throw .invalid(
                "refusing to upgrade \(project): you edited \(plan.edited.count == 1 ? "this file" : "these files") "
                    + "that ExtensionBridge owns, and upgrade would replace "
                    + (plan.edited.count == 1 ? "it" : "them") + ": " + plan.edited.joined(separator: ", ")
                    + ". Move your changes into extension/app/ or files of your own, or pass --force to keep each "
                    + "as FILE.orig beside the new one")
        }
        for path in plan.keptAsOrig where ProjectUpgrader.state(path + ".orig", in: project) != .missing {
            throw .invalid("\(path).orig already exists; move it away first (upgrade --force keeps \(path) there)")
        }
        return plan
    }

    /// The template's files of each Swift target (`Sources/<T>/`, `Tests/<T>/`) whose folder the
    /// project lacks: a target the newer `Package.swift` declares that did not exist when the
    /// project was made. A target folder that exists is the app's, and nothing is added to it.
    func newTargetFiles(_ files: [GeneratedFile]) -> [GeneratedFile] {
        files.filter { file in
            let parts = file.path.split(separator: "/", maxSplits: 2)
            guard parts.count == 3, parts[0] == "Sources" || parts[0] == "Tests" else { return false }
            return ProjectUpgrader.state(parts[0] + "/" + parts[1], in: project) == .missing
        }
    }

    /// The app's answers, read back from `bridge.json` and the manifest.
    private func appSpec(_ description: BridgeDescription) throws(GeneratorError) -> ProjectSpec {
        var version = description.version
        if case .file(let bytes) = ProjectUpgrader.state(ProjectOwnership.manifestPath, in: project),
            let text = (try? JSONParser.parse(bytes))?["version"]?.stringValue
        {
            version = text  // the app bumps it for each release: it is the app's
        }
        var spec = ProjectSpec(
            name: description.name, hostName: description.hostName, group: description.group,
            dependency: dependency, version: version, features: description.features)
        spec.existingFirefoxID = description.firefoxID
        try spec.validate()
        guard spec.hostProduct == description.hostProduct else {
            throw .invalid(
                "bridge.json's hostProduct '\(description.hostProduct)' is not the one generated for "
                    + "\(description.name) (\(spec.hostProduct)); upgrade regenerates the scripts for that name")
        }
        return spec
    }

    /// The public half of the extension's key, from the manifest's `key`:
    /// it must give bridge.json's Chromium id.
    private func publicKey(_ description: BridgeDescription) throws(GeneratorError) -> ExtensionKey {
        guard case .file(let bytes) = ProjectUpgrader.state(ProjectOwnership.manifestPath, in: project),
            let key = (try? JSONParser.parse(bytes))?["key"]?.stringValue, let der = Base64.decode(key)
        else {
            throw .invalid(
                "\(project)/\(ProjectOwnership.manifestPath) has no readable \"key\"; upgrade keeps the extension's "
                    + "key and never makes a new one: restore the manifest from version control")
        }
        guard ExtensionIdentity.chromiumID(fromKey: key) == description.chromiumID else {
            throw .invalid(
                "the key in \(ProjectOwnership.manifestPath) gives Chromium id "
                    + "\(ExtensionIdentity.chromiumID(fromKey: key) ?? "none"), not bridge.json's "
                    + "\(description.chromiumID); restore one of them so they agree")
        }
        return ExtensionKey(privateKeyPEM: [], publicKeyDER: der)
    }

    /// What is at `path` (relative) in `project`, no link followed on the way: a link or a
    /// non-folder among its parents makes it `.notRegular`.
    static func state(_ path: String, in project: String) -> UpgradePlan.Found {
        let parts = path.split(separator: "/").map(String.init)
        var current = project
        for (index, part) in parts.enumerated() {
            current += "/" + part
            guard let info = try? FileSystem.status(current) else { return .missing }
            let last = index == parts.count - 1
            if info.isSymbolicLink { return .notRegular(last ? "a link" : "\(current) is a link") }
            if !last && !info.isDirectory { return .notRegular("\(current) is not a folder") }
            if last && !info.isRegular { return .notRegular("not a regular file") }
        }
        guard let bytes = try? FileSystem.readFile(project + "/" + path, noFollow: true, limit: 16 << 20) else {
            return .notRegular("unreadable")
        }
        return .file(bytes)
    }

    /// The project's regular files (relative), outside builds and version control; links not followed.
    func listFiles() -> [String] {
        var out: [String] = []
        var pending = [""]
        while let relative = pending.popLast(), out.count < 50_000 {
            let folder = relative.isEmpty ? project : project + "/" + relative
            for name in ((try? FileSystem.listDirectory(folder)) ?? []) {
                let path = relative.isEmpty ? name : relative + "/" + name
                guard let info = try? FileSystem.status(project + "/" + path) else { continue }
                if info.isDirectory {
                    if !ProjectUpgrader.skippedFolders.contains(name) { pending.append(path) }
                } else if info.isRegular {
                    out.append(path)
                }
            }
        }
        return out
    }
}
