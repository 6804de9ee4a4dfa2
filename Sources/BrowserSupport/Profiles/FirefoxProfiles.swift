import BridgeJSON
import BridgeSystem

/// Firefox's profiles (`profiles.ini`) and what each records about add-ons:
/// `extensions.json` (`addons[]`: `id`, `location`, `active`, `userDisabled`,
/// `appDisabled`, `signedState`) and `extension-preferences.json` (granted
/// `origins`).
///
/// Verified with Firefox ESR 153 (`extensions.json` schemaVersion 37): an MV3
/// add-on's content-script origins are optional — `optionalPermissions.origins`
/// in `extensions.json` — and granted ones are in `extension-preferences.json`;
/// withdrawing them empties that list. A temporary add-on is not written to
/// `extensions.json` at all.
public enum FirefoxProfiles {
    /// The gecko application id Firefox's system folder is named after.
    public static let applicationID = "{ec8030f7-c20a-464f-9b0e-13a3a9e97384}"

    /// The folders holding `profiles.ini` for `browser`, relative to HOME: Firefox's
    /// classic one and, for Firefox 147+, the XDG one.
    public static func iniFolders(for browser: Browser) -> [String] {
        switch browser.id {
        case "firefox": return [".mozilla/firefox", ".config/mozilla/firefox"]
        default: return [browser.linuxConfig]
        }
    }

    /// The profiles every `profiles.ini` of `browser` under `home` lists.
    public static func list(browser: Browser, home: String) -> ProfileList {
        var list = ProfileList()
        for folder in iniFolders(for: browser) {
            let base = home + "/" + folder
            switch ProfileFile.readText(base + "/profiles.ini") {
            case .success(let text):
                let parsed = parseINI(text, folder: base)
                for profile in parsed.profiles where !list.profiles.contains(where: { $0.path == profile.path }) {
                    list.profiles.append(profile)
                }
                list.problems += parsed.problems
            case .failure(.missing): continue
            case .failure(.unusable(let reason)): list.problems.append((base + "/profiles.ini", reason))
            }
        }
        return list
    }

    /// The `[ProfileN]` sections of a `profiles.ini` in `folder`: `Name=`, `Path=`,
    /// `IsRelative=`. A relative path that climbs out of `folder` (`..`) is refused.
    public static func parseINI(_ text: String, folder: String) -> ProfileList {
        var list = ProfileList()
        var sections: [(name: String, values: [String: String])] = []
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = raw.trimmingSpaces
            if line.hasPrefix("[") && line.hasSuffix("]") {
                sections.append((String(line.dropFirst().dropLast()), [:]))
            } else if let equals = line.firstIndex(of: "="), !sections.isEmpty, !line.hasPrefix(";"),
                !line.hasPrefix("#")
            {
                sections[sections.count - 1].values[String(line[..<equals]).trimmingSpaces] =
                    String(
                        line[line.index(after: equals)...]
                    ).trimmingSpaces
            }
        }
        let ini = folder + "/profiles.ini"
        for section in sections where section.name.hasPrefix("Profile") {
            guard let path = section.values["Path"], !path.isEmpty, !path.utf8.contains(0) else { continue }
            let name = section.values["Name"] ?? path
            if section.values["IsRelative"] == "0" {
                guard path.hasPrefix("/") else {
                    list.problems.append(
                        (ini, "[\(section.name)] Path=\(path) is neither relative nor absolute: skipped"))
                    continue
                }
                list.profiles.append(BrowserProfile(name: name, path: path))
            } else {
                let parts = path.split(separator: "/")
                guard !path.hasPrefix("/"), !parts.contains(".."), !parts.isEmpty else {
                    list.problems.append(
                        (ini, "[\(section.name)] Path=\(path) leaves the folder of profiles.ini: skipped"))
                    continue
                }
                list.profiles.append(BrowserProfile(name: name, path: folder + "/" + parts.joined(separator: "/")))
            }
        }
        return list
    }

    /// What `profilePath` records about any of `ids`.
    public static func presence(profilePath: String, ids: [String], systemFolder: String? = nil)
        -> ExtensionPresence
    {
        let database: JSONValue
        switch ProfileFile.readJSON(profilePath + "/extensions.json") {
        case .json(let json): database = json
        case .missing:
            if (try? FileSystem.status(profilePath, followLinks: true))?.isDirectory != true {
                return .unreadable(reason: "the profile folder is missing or not a folder")
            }
            return .notInstalled(systemFolder: systemFolder)
        case .unusable(let reason): return .unreadable(reason: reason)
        }
        let addons = (database["addons"]?.arrayValue ?? []).filter {
            guard let id = $0["id"]?.stringValue else { return false }
            return ids.contains(id)
        }
        // One id can be recorded in several locations; the visible one is in use.
        guard let addon = addons.first(where: { $0["visible"]?.boolValue != false }) ?? addons.first,
            let id = addon["id"]?.stringValue
        else {
            return .notInstalled(systemFolder: systemFolder)
        }
        let route = InstallRoute.firefox(location: addon["location"]?.stringValue ?? "?")
        if addon["userDisabled"]?.boolValue == true {
            return .disabled(id: id, route: route, byUser: true, reason: "userDisabled")
        }
        if addon["appDisabled"]?.boolValue == true {
            let signed = addon["signedState"]?.intValue.map { ", signedState \($0)" } ?? ""
            return .disabled(id: id, route: route, byUser: false, reason: "appDisabled\(signed)")
        }
        if addon["active"]?.boolValue != true {
            return .disabled(id: id, route: route, byUser: false, reason: "not active")
        }
        return hostAccessGranted(
            addon: addon,
            preferences: ProfileFile.readJSON(
                profilePath + "/extension-preferences.json"), id: id)
            ? .enabled(id: id, route: route) : .hostAccessWithdrawn(id: id, route: route)
    }

    /// True when the add-on may run on every http and https page: granted origins in
    /// `extension-preferences.json` (MV3) or install-time `userPermissions` (MV2).
    static func hostAccessGranted(addon: JSONValue, preferences: ProfileFile.Outcome, id: String) -> Bool {
        var origins = (addon["userPermissions"]?["origins"]?.arrayValue ?? []).compactMap(\.stringValue)
        if case .json(let json) = preferences {
            origins += (json[id]?["origins"]?.arrayValue ?? []).compactMap(\.stringValue)
        }
        return coversWeb(origins)
    }

    /// True when `origins` match every http and https page.
    public static func coversWeb(_ origins: [String]) -> Bool {
        if origins.contains("<all_urls>") || origins.contains("*://*/*") { return true }
        return origins.contains("http://*/*") && origins.contains("https://*/*")
    }

    /// The system folder's entry for one of `ids` (a folder or `.xpi` in
    /// `/usr/share/mozilla/extensions/{ec8030f7-…}/`, under `root`); nil otherwise.
    public static func systemFolderEntry(root: String = "", ids: [String]) -> String? {
        let folder = root + "/usr/share/mozilla/extensions/" + applicationID
        for id in ids where ProfileFile.isPlainName(id) {
            for path in [folder + "/" + id, folder + "/" + id + ".xpi"]
            where (try? FileSystem.status(path, followLinks: true)) != nil {
                return path
            }
        }
        return nil
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
