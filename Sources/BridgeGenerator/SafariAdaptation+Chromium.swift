import BridgeJSON

extension SafariAdaptation {
    /// The platforms Chromium accepts in `commands.*.suggested_key`; Safari adds `ios`, and Chromium
    /// refuses to load a manifest with a platform it does not know.
    static let chromiumShortcutPlatforms: Set<String> = ["default", "mac", "windows", "chromeos", "linux"]
    /// CSP directives whose sources Chromium and Firefox limit in Manifest V3 extension pages.
    static let scriptDirectives: Set<String> = [
        "script-src", "script-src-elem", "script-src-attr", "object-src", "worker-src", "default-src",
    ]

    /// What Chromium needs beyond what both browsers share: for a Manifest V2 extension, a Manifest V3
    /// manifest derived from Firefox's; for either, the Apple-only and insecure values it refuses.
    mutating func adaptForChromium() {
        if version == 2 {
            chromium = derivedManifestV3()
            reportDerived()
        }
        var target = chromium ?? manifest
        dropApplePlatforms(&target)
        limitScriptSources(&target)
        dropMissingIcons(&target)
        if chromium != nil { chromium = target } else { manifest = target }
    }

    /// Chromium's Manifest V3 manifest from Firefox's Manifest V2 one.
    func derivedManifestV3() -> [String: JSONValue] {
        var out = manifest
        out["manifest_version"] = 3
        out["browser_specific_settings"] = nil
        if let action = out.removeValue(forKey: "browser_action") ?? out["page_action"] {
            out["action"] = Self.withoutBrowserStyle(action)
        }
        out["page_action"] = nil
        var background: [String: JSONValue] = [:]
        if let entryPath { background["service_worker"] = .string(entryPath) }
        if roles.backgroundIsModule { background["type"] = "module" }
        out["background"] = background.isEmpty ? nil : .object(background)
        if let options = out["options_ui"] { out["options_ui"] = Self.withoutBrowserStyle(options) }
        // The shortcut that opens Manifest V2's browser or page action opens Manifest V3's action.
        if case .object(var commands)? = out["commands"] {
            for old in ["_execute_browser_action", "_execute_page_action"] {
                if let command = commands.removeValue(forKey: old), commands["_execute_action"] == nil {
                    commands["_execute_action"] = command
                }
            }
            out["commands"] = .object(commands)
        }
        for (list, hosts) in [
            ("permissions", "host_permissions"), ("optional_permissions", "optional_host_permissions"),
        ] {
            let entries = out[list]?.arrayValue ?? []
            let isHost: (JSONValue) -> Bool = {
                $0.stringValue.map { $0 == "<all_urls>" || $0.contains("://") } ?? false
            }
            var kept = entries.filter { !isHost($0) && $0 != "webRequestBlocking" }
            if list == "permissions" && usesScriptInjection() && !kept.contains("scripting") {
                kept.append("scripting")
            }
            out[list] = kept.isEmpty && out[list] == nil ? nil : .array(kept)
            let moved = entries.filter(isHost)
            if !moved.isEmpty { out[hosts] = .array((out[hosts]?.arrayValue ?? []) + moved) }
        }
        if let policy = out["content_security_policy"]?.stringValue {
            out["content_security_policy"] = ["extension_pages": .string(policy)]
        }
        if let resources = out["web_accessible_resources"]?.arrayValue, resources.allSatisfy({ $0.stringValue != nil })
        {
            out["web_accessible_resources"] = [["resources": .array(resources), "matches": ["<all_urls>"]]]
        }
        return out
    }

    /// Logs what deriving changed (apart from the background, which says so itself).
    mutating func reportDerived() {
        let original = manifest
        if original["browser_action"] != nil || original["page_action"] != nil {
            report.change(
                "\(SafariImport.chromiumFolder)/manifest.json: browser_action / page_action is action (the shim "
                    + "gives your code browserAction and pageAction on it)")
        }
        if original["page_action"] != nil {
            report.find(
                "manifest.json", manifestLine("page_action"), "page_action (Manifest V2)", .differs,
                "Chromium shows an action on every tab: pageAction.show/hide become action.enable/disable")
        }
        if (original["permissions"]?.arrayValue ?? []).contains("webRequestBlocking") {
            report.find(
                "manifest.json", manifestLine("webRequestBlocking"), "webRequestBlocking (Manifest V2)", .no,
                "Chromium's Manifest V3 blocks requests with declarativeNetRequest rules only (left out for Chromium)")
        }
        report.change(
            "\(SafariImport.chromiumFolder)/manifest.json: Manifest V3 for Chromium: host patterns in "
                + "host_permissions, content_security_policy and web_accessible_resources in their Manifest V3 "
                + "forms; everything else of yours is a link into extension/")
    }

    /// Whether any script calls Manifest V2's `tabs.executeScript` / `insertCSS` / `removeCSS`.
    func usesScriptInjection() -> Bool {
        files.contains { path, bytes in
            guard SafariScriptRoles.isScript(path) else { return false }
            let tokens = JavaScriptTokens(bytes)
            return tokens.tokens.indices.contains { index in
                tokens.isIdentifier(index, "tabs") && tokens.isPunctuation(index + 1, ".")
                    && ["executeScript", "insertCSS", "removeCSS"].contains(tokens[index + 2]?.text ?? "")
            }
        }
    }

    static func withoutBrowserStyle(_ value: JSONValue) -> JSONValue {
        guard case .object(var fields) = value else { return value }
        fields["browser_style"] = nil
        fields["chrome_style"] = nil
        return .object(fields)
    }

    /// `commands.*.suggested_key` platforms Chromium does not know (Safari's `ios`), dropped.
    mutating func dropApplePlatforms(_ target: inout [String: JSONValue]) {
        guard var commands = target["commands"]?.objectValue else { return }
        var dropped: Set<String> = []
        for (name, command) in commands {
            guard case .object(var fields) = command, case .object(var keys)? = fields["suggested_key"] else {
                continue
            }
            for platform in keys.keys where !Self.chromiumShortcutPlatforms.contains(platform) {
                keys[platform] = nil
                dropped.insert(platform)
            }
            fields["suggested_key"] = .object(keys)
            commands[name] = .object(fields)
        }
        guard !dropped.isEmpty else { return }
        target["commands"] = .object(commands)
        let names = dropped.sorted().map { DisplayText.escaped($0) }.joined(separator: ", ")
        report.change(
            "\(chromium == nil ? "manifest.json" : SafariImport.chromiumFolder + "/manifest.json"): dropped the "
                + "shortcut platform \(names) from commands (Apple's; Chromium refuses to load a platform it does not "
                + "know, Firefox ignores it)")
    }

    /// Icons the folder does not have, left out: Chromium refuses to load a manifest naming one (Safari and
    /// Firefox show a default icon). The missing file is reported by `placeMissingFiles` too.
    mutating func dropMissingIcons(_ target: inout [String: JSONValue]) {
        var dropped: [String] = []
        func kept(_ value: JSONValue?) -> JSONValue? {
            switch value {
            case .string(let path)?:
                if files[SafariScriptRoles.plain(path)] != nil { return value }
                dropped.append(path)
                return nil
            case .object(let sizes)?:
                let remaining = sizes.compactMapValues { kept($0) }
                return remaining.isEmpty ? nil : .object(remaining)
            default: return value
            }
        }
        target["icons"] = kept(target["icons"])
        for action in ["action", "browser_action", "page_action"] {
            guard case .object(var fields)? = target[action], fields["default_icon"] != nil else { continue }
            fields["default_icon"] = kept(fields["default_icon"])
            target[action] = .object(fields)
        }
        guard !dropped.isEmpty else { return }
        report.change(
            "\(chromium == nil ? "manifest.json" : SafariImport.chromiumFolder + "/manifest.json"): left out the "
                + "missing icon\(Set(dropped).count == 1 ? "" : "s") "
                + Set(dropped).sorted().map { DisplayText.escaped($0) }.joined(separator: ", ")
                + " (Chromium refuses to load a manifest naming a missing icon)")
    }

    /// Extension pages' script sources limited to what Manifest V3 allows ('self', 'none',
    /// 'wasm-unsafe-eval', localhost): Chromium refuses to load a manifest with others, and neither
    /// browser ever ran inline or remote code in a Manifest V3 extension page.
    mutating func limitScriptSources(_ target: inout [String: JSONValue]) {
        guard case .object(var policy)? = target["content_security_policy"],
            let pages = policy["extension_pages"]?.stringValue
        else { return }
        var removed: [String] = []
        let directives = pages.split(separator: ";").map { directive -> String in
            let parts = directive.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
            guard let name = parts.first, Self.scriptDirectives.contains(name.lowercased()) else {
                return parts.joined(separator: " ")
            }
            let kept = parts.dropFirst().filter { source in
                let lower = source.lowercased()
                let allowed =
                    ["'self'", "'none'", "'wasm-unsafe-eval'"].contains(lower) || lower.hasPrefix("http://localhost")
                    || lower.hasPrefix("http://127.0.0.1")
                if !allowed { removed.append("\(name) \(source)") }
                return allowed
            }
            return ([name] + kept).joined(separator: " ")
        }
        guard !removed.isEmpty else { return }
        policy["extension_pages"] = .string(directives.filter { !$0.isEmpty }.joined(separator: "; "))
        target["content_security_policy"] = .object(policy)
        report.find(
            "manifest.json", manifestLine("content_security_policy"), "content_security_policy", .differs,
            "dropped " + removed.map { DisplayText.escaped($0) }.joined(separator: ", ")
                + ": Manifest V3 extension pages run no inline or remote script in Chromium or Firefox (Chromium "
                + "refuses to load a manifest that asks)")
    }
}
