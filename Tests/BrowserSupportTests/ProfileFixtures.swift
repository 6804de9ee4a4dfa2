import Foundation
import TestSupport

/// Profile files shaped like what real browsers wrote (Chromium 156, Firefox ESR 153), trimmed.
enum ProfileFixtures {
    static let chromiumID = "honlgoealnaplikdeeidpcknncfcnfmo"
    static let geckoID = "extension-bridge@extensionbridge.org"

    /// One `extensions.settings` entry as Chromium 156 writes it for `--load-extension`.
    static func chromiumEntry(location: Int = 8, disableReasons: String = "[]", path: String = "/work/extension")
        -> String
    {
        """
        {"account_extension_type":0,"active_permissions":{"api":["activeTab","clipboardWrite","contextMenus",\
        "nativeMessaging","storage"],"explicit_host":[],"manifest_permissions":[],\
        "scriptable_host":["http://*/*","https://*/*"]},"creation_flags":38,"disable_reasons":\(disableReasons),\
        "first_install_time":"13440633353056753","from_webstore":false,"location":\(location),\
        "path":"\(path)","was_installed_by_default":false,"withholding_permissions":false}
        """
    }

    /// A `Preferences` file: the PDF viewer component plus `entries`, and `external_uninstalls`.
    static func chromiumPreferences(_ entries: [String: String], externalUninstalls: [String]? = nil) -> String {
        var settings = [
            "\"mhjfbmdgcfjbbpaeojofohoefgiehjai\":{\"disable_reasons\":[],\"location\":5,"
                + "\"path\":\"/usr/lib/chromium/resources/pdf\"}"
        ]
        for (id, entry) in entries.sorted(by: { $0.key < $1.key }) { settings.append("\"\(id)\":\(entry)") }
        let uninstalls =
            externalUninstalls.map {
                ",\"external_uninstalls\":[" + $0.map { "\"\($0)\"" }.joined(separator: ",") + "]"
            }
            ?? ""
        return "{\"extensions\":{\"alerts\":{},\"last_chrome_version\":\"156.0.8078.114\",\"settings\":{"
            + settings.joined(separator: ",") + "}" + uninstalls + "},\"protection\":{\"macs\":{}}}"
    }

    /// `Local State` naming `profiles`.
    static func localState(_ profiles: [String]) -> String {
        "{\"profile\":{\"info_cache\":{" + profiles.map { "\"\($0)\":{\"name\":\"Person\"}" }.joined(separator: ",")
            + "},\"profiles_order\":[]}}"
    }

    /// An `extensions.json` entry as Firefox ESR 153 writes it.
    static func firefoxAddon(
        location: String = "app-profile", active: Bool = true, userDisabled: Bool = false,
        appDisabled: Bool = false, visible: Bool = true, signedState: String = "0"
    ) -> String {
        """
        {"id":"\(geckoID)","location":"\(location)","version":"0.1.0","type":"extension","active":\(active),\
        "userDisabled":\(userDisabled),"appDisabled":\(appDisabled),"softDisabled":false,"visible":\(visible),\
        "signedState":\(signedState),"userPermissions":{"permissions":["nativeMessaging","storage","contextMenus",\
        "activeTab","clipboardWrite"],"origins":[],"data_collection":[]},"optionalPermissions":{"permissions":[],\
        "origins":["http://*/*","https://*/*"],"data_collection":[]}}
        """
    }

    static func extensionsJSON(_ addons: [String]) -> String {
        "{\"schemaVersion\":37,\"addons\":[{\"id\":\"default-theme@mozilla.org\",\"location\":\"app-builtin\","
            + "\"active\":true,\"visible\":true}" + addons.map { "," + $0 }.joined() + "]}"
    }

    /// `extension-preferences.json` with our add-on's granted `origins`.
    static func extensionPreferences(origins: [String]) -> String {
        "{\"default-theme@mozilla.org\":{\"permissions\":[\"internal:privateBrowsingAllowed\"],\"origins\":[],"
            + "\"data_collection\":[]},\"\(geckoID)\":{\"permissions\":[],\"origins\":["
            + origins.map { "\"\($0)\"" }.joined(separator: ",") + "],\"data_collection\":[]}}"
    }
}

extension TemporaryFolder {
    /// Writes `text` at `relative` (folders made as needed); returns the full path.
    @discardableResult
    func write(_ relative: String, _ text: String) -> String {
        let path = self.path + "/" + relative
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    func makeFolder(_ relative: String) {
        try? FileManager.default.createDirectory(atPath: path + "/" + relative, withIntermediateDirectories: true)
    }
}
