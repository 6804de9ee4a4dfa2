import BridgeJSON
import BridgeSystem
import BrowserSupport
import SharedSuite

/// `read`, `delete`, `export`, `import`, `enable`, `disable`, `repair` (`write` is all in Verbs/:
/// `WriteVerb` and `ValueParser`).
struct SuiteCommands {
    let context: CLIContext
    let store: Suite
    let json: Bool

    /// Plain text for one value: scalars bare, containers as pretty JSON.
    static func plain(_ value: SuiteValue) -> String {
        switch value {
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return JSONWriter.format(d)
        case .string(let s): return s
        case .data(let bytes): return Base64.encode(bytes)
        case .date(let t): return t.iso8601
        case .array, .dictionary: return JSONWriter.prettyString(value.json)
        }
    }

    /// The value of `key`, or every key when nil. Operand counts are the parser's (`ReadVerb.spec`).
    func read(_ key: String?) throws(CLIError) {
        try requireExistingGroup(reading: key)
        let snapshot = try suite { () throws(SuiteError) in try store.snapshot() }
        guard let key else {
            let all = JSONValue.object(snapshot.values.mapValues(\.json))
            try context.print(json ? JSONWriter.string(all) : JSONWriter.prettyString(all))
            return
        }
        guard let value = snapshot[key] else {
            throw CLIError(.missing, "the key '\(key)' does not exist in \(store.container.suitePath)")
        }
        try context.print(json ? JSONWriter.string(value.json) : SuiteCommands.plain(value))
    }

    func delete(_ key: String) throws(CLIError) {
        var existed = false
        try suite { () throws(SuiteError) in
            try store.update { values in existed = values.removeValue(forKey: key) != nil }
        }
        if !existed { throw CLIError(.missing, "the key '\(key)' does not exist in \(store.container.suitePath)") }
    }

    func setEnabled(_ on: Bool) throws(CLIError) {
        let existed = store.container.exists
        try suite { () throws(SuiteError) in try store.update { SuiteKeys.setEnabled(on, in: &$0) } }
        noteIfCreated(existed: existed)
        if !json { context.writeErr("extension \(on ? "enabled" : "disabled") (\(SuiteKeys.enabled) = \(on))") }
    }

    /// Writes the suite to `target` (`-` or nil: stdout).
    func export(_ target: String?) throws(CLIError) {
        let values = try suite { () throws(SuiteError) in try store.snapshot().values }
        let bytes = Suite.encode(values)
        let target = target ?? "-"
        if target == "-" {
            try context.out(bytes)
        } else {
            try SuiteCommands.refuseToReplace(target)
            do {
                try FileSystem.writeAtomically(target, bytes, permissions: 0o600)
            } catch {
                throw CLIError(.io, "cannot write \(target): \(error)")
            }
        }
    }

    /// The atomic write renames a new file over `target`, so a link, device, pipe, socket or folder
    /// there would be replaced by a regular file (as root, `export /dev/null` would replace the
    /// device for every process), not written through. Only a regular file, or nothing, is replaced.
    static func refuseToReplace(_ target: String) throws(CLIError) {
        let status: FileStatus?
        do {
            status = try FileSystem.status(target)
        } catch {
            throw CLIError(.io, "cannot inspect \(DisplayText.escaped(target)): \(error)")
        }
        guard let status, !status.isRegular else { return }
        let what: String
        switch status.kind {
        case .symbolicLink: what = "a symbolic link"
        case .directory: what = "a folder"
        case .fifo: what = "a named pipe"
        case .socket: what = "a socket"
        case .characterDevice, .blockDevice: what = "a device"
        case .regular, .other: what = "not a regular file"
        }
        // A folder cannot be written through: name a file in it instead.
        let way =
            status.isDirectory
            ? "name a file inside it, such as \(DisplayText.escaped((target + "/suite.json").shellQuoted))"
            : "to write through it, run `extension-bridge export > \(DisplayText.escaped(target.shellQuoted))`"
        throw CLIError(
            .cantCreate,
            "refusing to export to \(DisplayText.escaped(target)): it is \(what), and export replaces FILE "
                + "with a new regular file; \(way) (or `export -` for standard output)")
    }

    /// Replaces the suite with `source` (`-` or nil: stdin).
    func importValues(_ source: String?) throws(CLIError) {
        let source = source ?? "-"
        let bytes = try context.readInput(source)
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(bytes, maximumDepth: 512, asWritten: true)
        } catch {
            throw CLIError(.data, "cannot import \(source): \(error)")
        }
        let values: [String: SuiteValue]
        if let document = parsed.objectValue, document["formatVersion"] != nil {
            // import replaces the whole suite: a document cut short (no values) would empty it, and a
            // member the format does not have would be dropped without a word.
            if document["values"] == nil {
                throw CLIError(
                    .data,
                    "cannot import \(source): a suite document without values would empty the suite; nothing was "
                        + "changed (to empty it on purpose, import {\"formatVersion\":1,\"values\":{}})")
            }
            if let other = document.keys.sorted().first(where: { $0 != "formatVersion" && $0 != "values" }) {
                throw CLIError(
                    .data,
                    "cannot import \(source): '\(DisplayText.escaped(other))' is not part of a suite document "
                        + "(formatVersion and values are); nothing was changed")
            }
            do throws(SuiteError) {
                values = try Suite.decode(document: parsed, path: source)
            } catch {
                // The input is not the suite: repair (which moves a broken suite aside) does nothing for it.
                switch error {
                case .corrupt(_, let reason):
                    throw CLIError(.data, "cannot import \(source): \(reason); nothing was changed")
                case .newerFormat(_, let version, let supported):
                    throw CLIError(
                        .data,
                        "cannot import \(source): it has formatVersion \(version), but this ExtensionBridge reads up "
                            + "to \(supported); upgrade ExtensionBridge (nothing was changed)")
                default: throw CLIError(.data, "cannot import \(source): \(error)")
                }
            }
        } else if let members = parsed.objectValue {
            do {
                values = try SuiteValue.decodeMembers(members)
            } catch {
                throw CLIError(.data, "\(source): \(error)")
            }
        } else {
            throw CLIError(
                .data, "\(source) must hold a suite document or an object of values, not a \(parsed.typeName)")
        }
        let existed = store.container.exists
        try suite { () throws(SuiteError) in try store.replaceAll(values) }
        noteIfCreated(existed: existed)
        if !json { context.writeErr("imported \(values.count) keys into \(store.container.suitePath)") }
        warnAboutKnownKeys(values)
        noteIfOff(after: values.keys)
    }

    func repair() throws(CLIError) {
        switch try suite({ () throws(SuiteError) in try store.repair() }) {
        case .nothingToRepair:
            try context.print("nothing to repair: \(store.container.suitePath) is readable or absent")
        case .movedAside(let target, let reason, let kept, let setAside):
            var line = "moved the unreadable suite (\(reason)) to \(target); "
            if kept.isEmpty {
                line += "no key could be kept, so the suite now starts from defaults"
            } else {
                line += "kept \(kept.count) key\(kept.count == 1 ? "" : "s") that still read"
                if !setAside.isEmpty {
                    line += "; only in the moved file: \(setAside.joined(separator: ", "))"
                }
            }
            try context.print(line)
        }
    }
}
