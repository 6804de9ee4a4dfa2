import BridgeJSON

/// Every file the manifest names, checked. Xcode copies the files of a
/// group (a yellow folder) flat into the extension, so a manifest may name
/// `options.html` that the project keeps in `options/`: such a file is found
/// by its name, and placed (copied, byte for byte) where the manifest
/// expects it, with the files it refers to from its folder, as Xcode would
/// have. What cannot be found is reported, naming the file.
extension SafariAdaptation {
    /// Each path the manifest names, with the key that names it.
    func namedPaths() -> [(path: String, key: String)] {
        var out: [(String, String)] = []
        func add(_ value: JSONValue?, _ key: String) {
            switch value {
            case .string(let path)?:
                if !path.contains("*") && !path.contains("://") { out.append((SafariScriptRoles.plain(path), key)) }
            case .array(let list)?: for item in list { add(item, key) }
            case .object(let fields)?:
                for (name, item) in fields.sorted(by: { $0.key < $1.key }) { add(item, key + "." + name) }
            default: break
            }
        }
        add(manifest["icons"], "icons")
        for action in ["action", "browser_action", "page_action"] {
            add(manifest[action]?["default_icon"], action + ".default_icon")
            add(manifest[action]?["default_popup"], action + ".default_popup")
            for theme in manifest[action]?["theme_icons"]?.arrayValue ?? [] {
                add(theme["light"], action + ".theme_icons")
                add(theme["dark"], action + ".theme_icons")
            }
        }
        for keyPath in Self.pageKeys where keyPath.first != "action" && !keyPath[0].hasSuffix("_action") {
            add(Self.value(at: keyPath, in: manifest).map(JSONValue.string), keyPath.joined(separator: "."))
        }
        add(manifest["background"]?["scripts"], "background.scripts")
        add(manifest["background"]?["page"], "background.page")
        add(manifest["background"]?["service_worker"], "background.service_worker")
        for entry in manifest["content_scripts"]?.arrayValue ?? [] {
            add(entry["js"], "content_scripts.js")
            add(entry["css"], "content_scripts.css")
        }
        for entry in manifest["web_accessible_resources"]?.arrayValue ?? [] {
            add(entry.stringValue != nil ? entry : entry["resources"], "web_accessible_resources")
        }
        for rules in manifest["declarative_net_request"]?["rule_resources"]?.arrayValue ?? [] {
            add(rules["path"], "declarative_net_request.rule_resources")
        }
        if let locale = manifest["default_locale"]?.stringValue {
            out.append(("_locales/\(locale)/messages.json", "default_locale"))
        }
        return out
    }

    /// Places each missing file the manifest names that the folder holds elsewhere (one file of that
    /// name), with what it refers to from there; reports the rest.
    mutating func placeMissingFiles() {
        var placed: [(from: String, to: String)] = []
        var reported: Set<String> = []
        for (path, key) in namedPaths() where files[path] == nil {
            // Refused with the background, or not a path; and each missing file said once.
            guard ProjectPath.isPlainRelative(path), reported.insert(path).inserted else { continue }
            let name = ExtensionPath.name(path)
            let candidates = files.keys.filter { ExtensionPath.name($0) == name }.sorted()
            guard candidates.count == 1, let source = candidates.first else {
                let also =
                    candidates.isEmpty
                    ? ""
                    : " (more than one file has its name: \(candidates.map { DisplayText.escaped($0) }.joined(separator: ", ")))"
                report.find(
                    "manifest.json", manifestLine(key.split(separator: ".").last.map(String.init) ?? key),
                    "missing file \(path)", .no,
                    "\(key) names \(DisplayText.escaped(path)), which the folder does not have\(also): add it or fix "
                        + "the manifest; the browsers refuse or break on a missing file")
                continue
            }
            place(source, at: path, placed: &placed)
        }
        guard !placed.isEmpty else { return }
        report.change(
            "placed "
                + placed.map { "\(DisplayText.escaped($0.from)) at \(DisplayText.escaped($0.to))" }
                .joined(separator: ", ")
                + " (byte for byte): the manifest names them there, and Xcode copies a group's files flat into "
                + "the extension, so Safari found them there too")
    }

    /// Copies `source` to `target`, then what it refers to that is missing beside `target` but is
    /// beside `source`.
    private mutating func place(_ source: String, at target: String, placed: inout [(from: String, to: String)]) {
        guard let bytes = files[source], files[target] == nil else { return }
        add(GeneratedFile(target, bytes))
        placed.append((source, target))
        let sourceFolder = ExtensionPath.folder(source)
        let targetFolder = ExtensionPath.folder(target)
        for reference in SafariReferences.of(path: target, bytes: bytes) where files[reference.path] == nil {
            guard reference.path.hasPrefix(targetFolder.isEmpty ? "" : targetFolder + "/") else { continue }
            let relative =
                targetFolder.isEmpty ? reference.path : String(reference.path.dropFirst(targetFolder.count + 1))
            let from = sourceFolder.isEmpty ? relative : sourceFolder + "/" + relative
            if files[from] != nil { place(from, at: reference.path, placed: &placed) }
        }
    }

    /// What the files `paths` (pages, style sheets, scripts) refer to that is missing: placed when the
    /// folder has one file of that name elsewhere (Xcode flattened its group), else reported.
    /// - Returns: whether a file was placed.
    private mutating func checkReferences(of paths: [String]) -> Bool {
        var placed: [(from: String, to: String)] = []
        for path in paths {
            guard let bytes = files[path] else { continue }
            for reference in SafariReferences.of(path: path, bytes: bytes) where files[reference.path] == nil {
                let name = ExtensionPath.name(reference.path)
                let candidates = files.keys.filter { ExtensionPath.name($0) == name }
                if candidates.count == 1, let source = candidates.first, ProjectPath.isPlainRelative(reference.path) {
                    place(source, at: reference.path, placed: &placed)
                    continue
                }
                report.find(
                    path, reference.line, "missing file \(reference.path)", .no,
                    "\(DisplayText.escaped(path)) refers to \(DisplayText.escaped(reference.path)), which the folder "
                        + "does not have")
            }
        }
        guard !placed.isEmpty else { return false }
        report.change(
            "placed "
                + placed.map { "\(DisplayText.escaped($0.from)) at \(DisplayText.escaped($0.to))" }
                .joined(separator: ", ") + " (byte for byte), where your pages and scripts refer to them (Xcode copies "
                + "a group's files flat into the extension)")
        return true
    }

    /// Places or reports what the manifest's pages (and their style sheets) and the scripts' imports refer
    /// to that is missing (pages not wrapped yet). Roles are found again when a file was placed.
    mutating func checkNamedReferences() {
        var pages: [String] = []
        for keyPath in Self.pageKeys + [["background", "page"]] {
            if let page = Self.value(at: keyPath, in: manifest).map(SafariScriptRoles.plain), files[page] != nil,
                !pages.contains(page), !page.hasPrefix(SafariImport.compatFolder),
                !ExtensionPath.name(page).hasPrefix(SafariImport.compatFolder)
            {
                pages.append(page)
            }
        }
        let styles = pages.flatMap { page in
            SafariReferences.of(path: page, bytes: files[page] ?? []).map(\.path).filter {
                $0.lowercased().hasSuffix(".css") && files[$0] != nil
            }
        }
        let scripts = roles.roles.keys.filter { files[$0] != nil && SafariScriptRoles.isScript($0) }.sorted()
        var seen: Set<String> = []
        if checkReferences(of: (pages + styles + scripts).filter { seen.insert($0).inserted }) {
            roles = SafariScriptRoles(manifest: manifest, files: files)
        }
    }
}
