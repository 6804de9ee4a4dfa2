import BridgeJSON

extension ExtensionPackage {
    /// Every file `manifest` names that the browser loads (scripts, pages, style sheets, icons, the
    /// default locale's messages), with where it is named (`content_scripts[0].js[1]`). URLs and
    /// patterns (`web_accessible_resources`) are not files.
    static func namedFiles(_ manifest: JSONValue) -> [(file: String, named: String)] {
        var named: [(String, String)] = []
        func add(_ value: JSONValue?, _ place: String) {
            if let file = value?.stringValue { named.append((file, place)) }
        }
        func addEach(_ value: JSONValue?, _ place: String) {
            for (index, item) in (value?.arrayValue ?? []).enumerated() { add(item, "\(place)[\(index)]") }
        }
        func addIcons(_ value: JSONValue?, _ place: String) {
            if value?.stringValue != nil { add(value, place) }
            for (size, icon) in (value?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                add(icon, "\(place).\(size)")
            }
        }
        let background = manifest["background"]
        add(background?["service_worker"], "background.service_worker")
        add(background?["page"], "background.page")
        addEach(background?["scripts"], "background.scripts")
        for (index, script) in (manifest["content_scripts"]?.arrayValue ?? []).enumerated() {
            addEach(script["js"], "content_scripts[\(index)].js")
            addEach(script["css"], "content_scripts[\(index)].css")
        }
        for key in ["action", "browser_action", "page_action"] {
            add(manifest[key]?["default_popup"], "\(key).default_popup")
            addIcons(manifest[key]?["default_icon"], "\(key).default_icon")
        }
        addIcons(manifest["icons"], "icons")
        add(manifest["options_page"], "options_page")
        add(manifest["options_ui"]?["page"], "options_ui.page")
        add(manifest["devtools_page"], "devtools_page")
        add(manifest["side_panel"]?["default_path"], "side_panel.default_path")
        add(manifest["sidebar_action"]?["default_panel"], "sidebar_action.default_panel")
        for (page, file) in (manifest["chrome_url_overrides"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            add(file, "chrome_url_overrides.\(page)")
        }
        if let locale = manifest["default_locale"]?.stringValue {
            named.append(("_locales/\(locale)/messages.json", "default_locale"))
        }
        return named
    }

    /// Refuses a manifest that names a file the package would not hold: the browser refuses to load
    /// such an extension, so the upload or CRX would be dead on arrival. A name that leaves the
    /// folder (`../x`) is refused too. `packed`: the paths of the files that go in.
    static func checkNamedFiles(
        _ manifest: JSONValue, manifestPath: String, packed: Set<String>, leftOut: [String]
    ) throws(PackError) {
        for (file, place) in namedFiles(manifest) {
            var parts: [Substring] = []
            for part in file.split(separator: "/", omittingEmptySubsequences: true) where part != "." {
                if part == ".." {
                    throw .manifest(
                        path: manifestPath,
                        reason: "\(place) names '\(DisplayText.escaped(file))', outside the extension folder")
                }
                parts.append(part)
            }
            let path = parts.joined(separator: "/")
            if packed.contains(path) { continue }
            let top = parts.first.map(String.init) ?? ""
            let why =
                leftOut.contains(top) || leftOut.contains(top + "/")
                ? "which pack leaves out of every package" : "which is not in the extension folder"
            throw .manifest(
                path: manifestPath,
                reason:
                    "\(place) names '\(DisplayText.escaped(file))', \(why): the browser would not load the extension"
            )
        }
    }
}
