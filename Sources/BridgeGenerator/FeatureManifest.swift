import BridgeJSON
import BrowserSupport

/// The parts of an extension that follow from its features (`new --features`): the manifest's
/// permissions, shortcut and content scripts, and the app's `app/app.js`. Pure, so `new` and
/// `upgrade` (a newer ExtensionBridge's manifest made the app's again from `bridge.json`) make
/// the same files. docs/GENERATOR.md has the table and the reasons.
public enum FeatureManifest {
    /// The features that need each permission of the bundled manifest; a permission not listed
    /// here (`nativeMessaging`, `storage`) is always kept.
    public static let permissionFeatures: [String: Set<ExtensionFeature>] = [
        // The save entries and "Transform selection with …".
        "contextMenus": [.saving, .transform],
        // The clicked or shortcut's tab URL and title, for a save.
        "activeTab": [.saving],
        // A transformed text outside an editable field goes to the clipboard.
        "clipboardWrite": [.transform],
    ]
    /// The features the isolated content script serves: rewriting, and collecting or replacing
    /// text for the menus (the page's text, the exact selection).
    public static let contentScriptFeatures: Set<ExtensionFeature> = [.vocabulary, .saving, .transform]
    /// The content script only rewriting needs: the page-world hook that reports open shadow roots.
    public static let rewritingOnlyScript = "content/shadow-hook.js"
    /// The `commands` entries need `saving` (the save-page shortcut).
    public static let commandFeature = ExtensionFeature.saving

    /// `bundled` (the manifest with every feature) with only what `features` need.
    public static func manifest(_ bundled: JSONValue, features: [ExtensionFeature]) -> JSONValue {
        guard case .object(var members) = bundled else { return bundled }
        let chosen = Set(features)
        if let permissions = members["permissions"]?.arrayValue {
            members["permissions"] = .array(
                permissions.filter { permission in
                    guard let name = permission.stringValue, let needs = permissionFeatures[name] else { return true }
                    return !needs.isDisjoint(with: chosen)
                })
        }
        if !chosen.contains(commandFeature) { members["commands"] = nil }
        if let scripts = members["content_scripts"]?.arrayValue {
            let kept = scripts.filter { script in
                let files = script["js"]?.arrayValue?.compactMap(\.stringValue) ?? []
                let needs: Set<ExtensionFeature> =
                    files.contains(rewritingOnlyScript) ? [.vocabulary] : contentScriptFeatures
                return !needs.isDisjoint(with: chosen)
            }
            members["content_scripts"] = kept.isEmpty ? nil : .array(kept)
        }
        return .object(members)
    }

    /// `app/app.js`: the app's name, host name, features and its own actions (none yet: the
    /// author declares each beside its Swift action), as the extension's code reads them.
    /// For ExtensionBridge's own values and every feature it is the bundled file, byte for byte.
    public static func appModule(name: String, hostName: String, features: [ExtensionFeature]) -> String {
        let list = features.map { javaScriptLiteral($0.rawValue) }.joined(separator: ", ")
        return """
            // The app's own configuration: the one file of this extension that belongs to
            // the app. `extension-bridge new` writes it (name, host name, the features
            // asked for with --features); `extension-bridge upgrade` keeps everything under
            // app/ as it is and replaces every other file from a newer ExtensionBridge.
            // The background, the popup and the tests read it; the manifest's permissions
            // are made from the same features (docs/GENERATOR.md).

            export const APP = Object.freeze({
              name: \(javaScriptLiteral(name)),
              hostName: \(javaScriptLiteral(hostName)),
              features: Object.freeze([\(list)]),
              // The app's own host actions (its Swift actions), called with
              // runtime.sendMessage({type: 'appAction', action: 'name', payload: {...}}).
              // Each: name → {callers}; callers default to ['popup', 'background'];
              // add 'content' only for an action any web page may trigger (a page
              // controls what its content script sends). Undeclared actions are refused.
              // Example: greet: Object.freeze({ callers: Object.freeze(['popup', 'content']) }),
              actions: Object.freeze({
              }),
            });

            """
    }

    /// A single-quoted JavaScript string literal: quotes and backslashes escaped, everything that is
    /// not printable ASCII as `\u{…}` (the values are checked ASCII already; this keeps it so).
    static func javaScriptLiteral(_ text: String) -> String {
        var out = "'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "'": out += "\\'"
            case "\\": out += "\\\\"
            default:
                if scalar.value < 0x20 || scalar.value >= 0x7F {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "'"
    }
}
