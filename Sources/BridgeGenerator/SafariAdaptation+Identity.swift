import BridgeJSON

extension SafariAdaptation {
    /// The ids the host allows, and the permission to reach it: the generated `key` (a fixed
    /// Chromium id), `browser_specific_settings.gecko.id` from the host name (Firefox's), and
    /// `nativeMessaging`.
    mutating func adaptIdentity() throws(GeneratorError) {
        if let old = manifest["key"]?.stringValue, old != key.manifestKey {
            report.change("manifest.json: replaced your key with the generated one (keys/README.md)")
        } else {
            report.change(
                "manifest.json: added the generated key (Chromium id \(key.chromiumID); the private half in keys/)")
        }
        manifest["key"] = .string(key.manifestKey)
        // Manifest V2's `applications` is the older name of browser_specific_settings: one of them, merged.
        var settings = manifest["browser_specific_settings"]?.objectValue ?? [:]
        if let old = manifest.removeValue(forKey: "applications")?.objectValue {
            settings.merge(old) { current, _ in current }
            report.change("manifest.json: applications (the older name) merged into browser_specific_settings")
        }
        var gecko = settings["gecko"]?.objectValue ?? [:]
        if let old = gecko["id"]?.stringValue, old != spec.firefoxID {
            report.change(
                "manifest.json: replaced your gecko id \(DisplayText.escaped(old)) with \(spec.firefoxID), the "
                    + "one the host allows (bridge.json)")
        } else if gecko["id"] == nil {
            report.change(
                "manifest.json: added browser_specific_settings.gecko.id \(spec.firefoxID) (without it Firefox "
                    + "gives a random id the host refuses)")
        }
        gecko["id"] = .string(spec.firefoxID)
        if gecko["strict_min_version"] == nil {
            gecko["strict_min_version"] = .string("128.0")
            report.change("manifest.json: added gecko.strict_min_version 128.0 (the Firefox tested here)")
        }
        settings["gecko"] = .object(gecko)
        manifest["browser_specific_settings"] = .object(settings)
        var permissions: [JSONValue] = []
        if let value = manifest["permissions"] {
            guard let list = value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                throw .invalid("manifest.json: permissions is not a list of names")
            }
            permissions = list
        }
        // Chromium and Firefox refuse _locales/ without default_locale.
        let locales = Set(
            files.keys.compactMap { path -> String? in
                let parts = path.split(separator: "/")
                return parts.count == 3 && parts[0] == "_locales" && parts[2] == "messages.json"
                    ? String(parts[1]) : nil
            })
        if manifest["default_locale"] == nil, let locale = locales.contains("en") ? "en" : locales.sorted().first {
            manifest["default_locale"] = .string(locale)
            report.change(
                "manifest.json: added default_locale \(DisplayText.escaped(locale)) (Chromium and Firefox refuse _locales/ "
                    + "without one)")
        }
        if !permissions.contains(.string("nativeMessaging")) {
            permissions.append(.string("nativeMessaging"))
            report.change("manifest.json: added the nativeMessaging permission")
        }
        manifest["permissions"] = .array(permissions)
    }

    /// `bridge-compat/browser-namespace.js` before each content script in the extension's world, for
    /// Chromium-family browsers without a `browser` namespace there (Chromium 156 has one).
    mutating func adaptContentScripts() {
        var prepended = false
        forEachManifest { manifest in
            guard var entries = manifest["content_scripts"]?.arrayValue else { return }
            for index in entries.indices {
                guard case .object(var fields) = entries[index], let js = fields["js"]?.arrayValue else { continue }
                if fields["world"]?.stringValue == "MAIN" || js.first == .string(SafariImport.namespacePath) {
                    continue
                }
                fields["js"] = .array([.string(SafariImport.namespacePath)] + js)
                entries[index] = .object(fields)
                prepended = true
            }
            manifest["content_scripts"] = .array(entries)
        }
        if prepended {
            report.change(
                "manifest.json: each content script loads \(SafariImport.namespacePath) first (browser as chrome in "
                    + "a Chromium-family browser without the browser namespace; Chromium 156 has it)")
        }
    }
}
