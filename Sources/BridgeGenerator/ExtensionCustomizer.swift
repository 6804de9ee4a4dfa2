import BridgeJSON
import BrowserSupport

/// Makes the bundled extension the app's own: its key and Chromium id, a
/// Firefox add-on id from the host name, `app/app.js` (name, host name,
/// features), the app's name in the locales, its version in the manifest and
/// only its features' permissions (`FeatureManifest`). The bundled
/// extension's own ids are read from its `extension-id.json` and manifest and
/// replaced wherever they appear as text (code, tests, docs), so the copied
/// node tests check the new values; so is the built-in bridge's doctor command,
/// which checks another host: the popup and the hints name
/// `extension-bridge doctor --config bridge.json`. ExtensionBridge's own
/// README gives way to one about the app's extension (`ExtensionReadme`).
enum ExtensionCustomizer {
    static func customize(_ files: [GeneratedFile], spec: ProjectSpec, key: ExtensionKey) throws(GeneratorError)
        -> [GeneratedFile]
    {
        guard let idsFile = files.first(where: { $0.path == "extension-id.json" }),
            let ids = try? JSONParser.parse(idsFile.bytes), let oldChromium = ids["chromium"]?.stringValue,
            let oldFirefox = ids["firefox"]?.stringValue, let oldHost = ids["hostName"]?.stringValue,
            let manifestFile = files.first(where: { $0.path == "manifest.json" }),
            let manifest = try? JSONParser.parse(manifestFile.bytes), let oldKey = manifest["key"]?.stringValue
        else {
            throw .missing(
                "the bundled extension has no readable extension-id.json or manifest key; "
                    + "point --package-path at an ExtensionBridge checkout")
        }
        let replacements = [
            (oldKey, key.manifestKey), (oldChromium, key.chromiumID), (oldFirefox, spec.firefoxID),
            (oldHost, spec.hostName),
        ]
        guard files.contains(where: { $0.path == appModulePath }) else {
            throw .missing(
                "the bundled extension has no \(appModulePath) (an older ExtensionBridge?); "
                    + "point --package-path at an ExtensionBridge checkout of this version")
        }
        var out: [GeneratedFile] = []
        for file in files {
            var file = file
            if var text = String(validating: file.bytes, as: UTF8.self), !file.bytes.contains(0) {
                for (old, new) in replacements { text = text.replacingAll(old, with: new) }
                file.bytes = Array(doctorForThisBridge(text).utf8)
            }
            if file.path == "README.md" {
                file.bytes = Array(ExtensionReadme.text(spec, chromiumID: key.chromiumID).utf8)
            } else if file.path == appModulePath {
                file.bytes = Array(
                    FeatureManifest.appModule(name: spec.name, hostName: spec.hostName, features: spec.features).utf8)
            } else if file.path == "manifest.json"
                || (file.path.hasPrefix("_locales/") && file.path.hasSuffix("/messages.json"))
            {
                file.bytes = try adjusted(file, spec: spec)
            } else if file.path.hasPrefix("popup/"), file.path.hasSuffix(".html") {
                // The page's own text before the locale strings fill it in: the app's name too.
                file.bytes = Array(
                    String(decoding: file.bytes, as: UTF8.self).replacingAll(productName, with: spec.name).utf8)
            }
            out.append(file)
        }
        return out
    }

    /// `text` with every `extension-bridge doctor` that does not already name a bridge.json naming
    /// this one's: the bare command checks the built-in bridge, not the app's.
    static func doctorForThisBridge(_ text: String) -> String {
        let bare = "extension-bridge doctor"
        let ours = bare + " --config bridge.json"
        let marker = "\u{0}doctor-config\u{0}"  // no text file here holds a NUL (checked above)
        return text.replacingAll(ours, with: marker).replacingAll(bare, with: ours).replacingAll(marker, with: ours)
    }

    /// The app's own file in the extension: the one `upgrade` keeps (with everything else under `app/`).
    static let appModulePath = "app/app.js"

    /// The name users see in the bundled extension, which a generated one says as the app's.
    static let productName = "ExtensionBridge"

    /// The manifest with the app's version; a locale with the app's name in every message users
    /// see (each `message`, and each placeholder's `content` and `example`), so no tooltip, popup,
    /// badge or notification of the app's extension speaks as ExtensionBridge.
    private static func adjusted(_ file: GeneratedFile, spec: ProjectSpec) throws(GeneratorError) -> [UInt8] {
        guard case .object(var members) = try? JSONParser.parse(file.bytes) else {
            throw .missing("the bundled extension's \(file.path) is not a JSON object")
        }
        if file.path == "manifest.json" {
            members["version"] = .string(spec.version)
            return JSONWriter.prettyBytes(FeatureManifest.manifest(.object(members), features: spec.features))
        }
        func renamed(_ value: JSONValue) -> JSONValue {
            switch value {
            case .string(let text): return .string(text.replacingAll(productName, with: spec.name))
            case .object(var fields):
                for key in ["message", "content", "example"] {
                    if let field = fields[key] { fields[key] = renamed(field) }
                }
                if case .object(var placeholders)? = fields["placeholders"] {
                    for (name, placeholder) in placeholders { placeholders[name] = renamed(placeholder) }
                    fields["placeholders"] = .object(placeholders)
                }
                return .object(fields)
            default: return value
            }
        }
        for (key, entry) in members { members[key] = renamed(entry) }
        if case .object(var entry)? = members["extensionName"] {
            entry["message"] = .string(spec.name)
            members["extensionName"] = .object(entry)
        }
        return JSONWriter.prettyBytes(.object(members))
    }
}

extension String {
    /// Every occurrence of `target` replaced, compared byte for byte (no
    /// Foundation, no canonical equivalence: ids and keys are ASCII).
    func replacingAll(_ target: String, with replacement: String) -> String {
        let source = Array(utf8)
        let needle = Array(target.utf8)
        guard !needle.isEmpty, source.count >= needle.count else { return self }
        var out: [UInt8] = []
        out.reserveCapacity(source.count)
        var i = 0
        while i < source.count {
            if i + needle.count <= source.count && source[i] == needle[0]
                && source[i..<(i + needle.count)].elementsEqual(needle)
            {
                out.append(contentsOf: replacement.utf8)
                i += needle.count
            } else {
                out.append(source[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
