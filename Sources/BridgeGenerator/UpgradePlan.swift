import BridgeJSON

/// What `upgrade` does to each file, worked out before anything is written:
/// a pure function of the record, the project's files as they are and the
/// newer core. No I/O here.
public struct UpgradePlan: Equatable, Sendable {
    /// A project file as upgrade found it.
    public enum Found: Equatable, Sendable {
        case missing
        case file([UInt8])
        /// A link, a folder or anything else where a regular file belongs (or a link on its way).
        case notRegular(String)
    }

    /// A core file to write, or an app file that does not exist yet (under `extension/app/`).
    public struct Write: Equatable, Sendable {
        public var file: GeneratedFile
        /// Replaces a file that is there (else adds one).
        public var replaces: Bool
    }

    public var from: String?
    public var to: String
    /// In path order.
    public var writes: [Write] = []
    /// Core files ExtensionBridge no longer has, removed.
    public var removals: [String] = []
    /// Edited core files kept as `FILE.orig` (only with `--force`; otherwise `edited` refuses).
    public var keptAsOrig: [String] = []
    /// Core files already as the newer ExtensionBridge writes them.
    public var unchanged: [String] = []
    /// The app's files, never touched.
    public var kept: [String] = []
    /// Core files the app edited (their fingerprint differs from the record's).
    public var edited: [String] = []
    /// The record upgrade writes last.
    public var record: CoreRecord

    public var added: [String] { writes.filter { !$0.replaces }.map(\.file.path) }
    public var replaced: [String] { writes.filter(\.replaces).map(\.file.path) }
    /// Nothing to write but, perhaps, the record.
    public var changesFiles: Bool { !writes.isEmpty || !removals.isEmpty || !keptAsOrig.isEmpty }

    /// Plans an upgrade.
    /// - Parameters:
    ///   - recorded: the project's `core.json`; nil for a project made before it existed, where every
    ///     core file that differs from the newer one counts as edited.
    ///   - found: each path of the record and of `newCore`, as it is in the project.
    ///   - newCore: the core files as the newer ExtensionBridge writes them for this app.
    ///   - newAppFiles: app files generation writes (under `extension/app/`): added only where missing.
    ///   - appFiles: the project's other files (the app's), listed as kept.
    ///   - record: the newer record.
    ///   - retired: the core files earlier templates wrote that the newer one does not
    ///     (`ProjectOwnership.retiredCoreFiles`): a recorded path is removed only if it is one of
    ///     them; any other path the record names beyond `newCore` is the app's, left alone.
    /// - Throws: `GeneratorError.invalid` naming every path that is not a regular file (never
    ///   overridable: writing there could reach outside the project).
    public static func make(
        recorded: CoreRecord?, found: [String: Found], newCore: [GeneratedFile], newAppFiles: [GeneratedFile] = [],
        appFiles: [String], record: CoreRecord, retired: Set<String> = []
    ) throws(GeneratorError) -> UpgradePlan {
        var plan = UpgradePlan(from: recorded?.version, to: record.version, record: record)
        let newByPath = Dictionary(newCore.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let retiredRecorded = (recorded.map { Array($0.files.keys) } ?? []).filter(retired.contains)
        let paths = Set(newByPath.keys).union(retiredRecorded).sorted()
        var notRegular: [String] = []
        for path in paths {
            let state = found[path] ?? .missing
            if case .notRegular(let what) = state {
                notRegular.append("\(path) (\(what))")
                continue
            }
            guard case .file(let bytes) = state else {
                if let new = newByPath[path] { plan.writes.append(Write(file: new, replaces: false)) }
                continue
            }
            let new = newByPath[path]
            if let new, new.bytes == bytes {
                plan.unchanged.append(path)
                continue
            }
            let recordedPrint = recorded?.files[path]
            let isEdited = recordedPrint.map { $0 != CoreRecord.fingerprint(path: path, bytes: bytes) } ?? true
            if isEdited {
                plan.edited.append(path)
                plan.keptAsOrig.append(path)
            }
            if let new {
                plan.writes.append(Write(file: new, replaces: true))
            } else if !isEdited {
                plan.removals.append(path)
            }
        }
        guard notRegular.isEmpty else {
            throw .invalid(
                "upgrade writes only regular files, never through a link: "
                    + notRegular.joined(separator: ", ") + " (replace each with the file, or remove it)")
        }
        for file in newAppFiles where (found[file.path] ?? .missing) == .missing {
            plan.writes.append(Write(file: file, replaces: false))
        }
        plan.kept = appFiles.sorted()
        return plan
    }

    /// The lines `upgrade` prints: the versions, then each file by what happens to it.
    /// - Parameter dryRun: say "would" instead of what was done.
    public func summary(project: String, dryRun: Bool) -> [String] {
        let fromText = from.map { "ExtensionBridge \($0)" } ?? "an ExtensionBridge before core.json"
        let first: String
        if from != to {
            first = (dryRun ? "would upgrade " : "upgraded ") + "\(project) from \(fromText) to ExtensionBridge \(to)"
        } else if changesFiles {
            // The same version with other files: a project made by a build of this version before its
            // templates changed (a checkout between releases).
            first =
                (dryRun ? "would update " : "updated ")
                + "\(project)'s files to this ExtensionBridge \(to)'s (core.json records \(to) already)"
        } else {
            first = "\(project) is current: its ExtensionBridge files are \(to)'s, nothing to change"
        }
        var lines = [first, "  Package.swift " + (dryRun ? "would depend" : "depends") + " on " + dependencyText]
        func list(_ verb: String, _ paths: [String]) {
            for path in paths { lines.append("  \(verb) \(path)") }
        }
        list("added      ", added)
        list("replaced   ", replaced)
        list("removed    ", removals)
        list("kept as .orig", keptAsOrig.map { "\($0) -> \($0).orig" })
        list("kept       ", kept)
        lines.append(
            "\(added.count) added, \(replaced.count) replaced, \(removals.count) removed, \(unchanged.count) "
                + "unchanged, \(kept.count) of the app's kept"
                + (keptAsOrig.isEmpty ? "" : ", \(keptAsOrig.count) .orig"))
        return lines
    }

    /// What `Package.swift` pins after the upgrade, in words.
    var dependencyText: String {
        switch record.dependency {
        case .carried: "the ExtensionBridge libraries it carries in \(CarriedSource.folder)/"
        case .url(let url, let exact): "\(DisplayText.escaped(url)), exactly \(DisplayText.escaped(exact))"
        }
    }

    /// The same as JSON, for `--json`.
    public func summaryJSON(project: String, dryRun: Bool) -> JSONValue {
        func strings(_ paths: [String]) -> JSONValue { .array(paths.map(JSONValue.string)) }
        return [
            "project": .string(project), "dryRun": .bool(dryRun), "from": from.map(JSONValue.string) ?? .null,
            "to": .string(to), "added": strings(added), "replaced": strings(replaced), "removed": strings(removals),
            "keptAsOrig": strings(keptAsOrig), "unchanged": strings(unchanged), "kept": strings(kept),
            "dependency": record.json["extensionBridge"] ?? .null,
        ]
    }
}
