import BridgeJSON
import BridgeSystem

/// A Chromium-family user data folder's profiles and what each records about
/// extensions (`<profile>/Preferences` → `extensions.settings.<id>`).
///
/// Verified with Chromium 156 on Linux: `extensions.settings` lives in
/// `Preferences` (`Secure Preferences` has only `protection.super_mac` there);
/// `disable_reasons` is a list (`[1]` after the user switches it off), older
/// builds wrote a bit mask and a `state` (0 = disabled).
public enum ChromiumProfiles {
    /// The profiles `Local State` lists (`profile.info_cache` keys), else the
    /// `Default` and `Profile N` folders that hold a `Preferences` file.
    public static func list(userDataDirectory: String) -> ProfileList {
        var list = ProfileList()
        var names: [String] = []
        let localState = userDataDirectory + "/Local State"
        switch ProfileFile.readJSON(localState) {
        case .json(let json):
            names = (json["profile"]?["info_cache"]?.objectValue?.keys).map { Array($0).sorted() } ?? []
            for name in names where !ProfileFile.isPlainName(name) {
                list.problems.append(
                    (
                        localState,
                        "names a profile \(JSONWriter.string(.string(name))) that is not a folder name: skipped"
                    ))
            }
            names = names.filter(ProfileFile.isPlainName)
        case .missing: break
        case .unusable(let reason): list.problems.append((localState, reason))
        }
        if names.isEmpty {
            let entries = (try? FileSystem.listDirectory(userDataDirectory)) ?? []
            names = entries.filter { name in
                (name == "Default" || (name.hasPrefix("Profile ") && Int(name.dropFirst(8)) != nil))
                    && (try? FileSystem.status(userDataDirectory + "/" + name + "/Preferences", followLinks: true))
                        != nil
            }.sorted()
        }
        list.profiles = names.map { BrowserProfile(name: $0, path: userDataDirectory + "/" + $0) }
        return list
    }

    /// What `profile` records about any of `ids`; the first installed one wins.
    public static func presence(profilePath: String, ids: [String], systemFolder: String? = nil)
        -> ExtensionPresence
    {
        let preferences: JSONValue
        switch ProfileFile.readJSON(profilePath + "/Preferences") {
        case .json(let json): preferences = json
        case .missing:
            if (try? FileSystem.status(profilePath, followLinks: true))?.isDirectory != true {
                return .unreadable(reason: "the profile folder is missing or not a folder")
            }
            return .unreadable(reason: "no Preferences file (the profile was never opened)")
        case .unusable(let reason): return .unreadable(reason: reason)
        }
        var extensions = preferences["extensions"]
        if extensions?["settings"]?.objectValue == nil,
            case .json(let secure) = ProfileFile.readJSON(profilePath + "/Secure Preferences"),
            secure["extensions"]?["settings"]?.objectValue != nil
        {
            // Chrome on Windows and macOS keeps extension settings in Secure Preferences.
            extensions = secure["extensions"]
        }
        let settings = extensions?["settings"]?.objectValue ?? [:]
        var firstDisabled: ExtensionPresence?
        for id in ids {
            guard let entry = settings[id], entry.objectValue != nil else { continue }
            let location = entry["location"]?.intValue ?? 0
            let path = entry["path"]?.stringValue ?? ""
            let route =
                location == 8 && systemPaths.contains(where: path.hasPrefix)
                ? InstallRoute.chromiumSystemFolder : .chromium(location: location)
            let reasons = disableReasons(entry)
            if reasons.isEmpty && entry["state"]?.intValue != 0 {
                return .enabled(id: id, route: route)
            }
            if firstDisabled == nil {
                let byUser = reasons.contains(1)
                firstDisabled = .disabled(
                    id: id, route: route, byUser: byUser,
                    reason: reasons.isEmpty
                        ? "state 0" : "disable_reasons " + reasons.map(String.init).joined(separator: ", "))
            }
        }
        if let firstDisabled { return firstDisabled }
        let removed = (extensions?["external_uninstalls"]?.arrayValue ?? []).compactMap(\.stringValue)
        if let id = ids.first(where: removed.contains) { return .removedByUser(id: id) }
        return .notInstalled(systemFolder: systemFolder)
    }

    /// Where Debian's system-wide copy lives: the folder `/usr/bin/chromium` loads, and the
    /// package's copy its entries link to (Chromium records the resolved path).
    static let systemPaths = ["/usr/share/chromium/extensions/", "/usr/share/extension-bridge/"]

    /// The disable reasons of one `extensions.settings` entry: a list of numbers
    /// (Chromium 156) or an older bit mask, as the single bits set.
    static func disableReasons(_ entry: JSONValue) -> [Int] {
        if let list = entry["disable_reasons"]?.arrayValue { return list.compactMap(\.intValue).filter { $0 != 0 } }
        guard let mask = entry["disable_reasons"]?.intValue, mask > 0 else { return [] }
        return (0..<62).map { 1 << $0 }.filter { mask & $0 != 0 }
    }

    /// Debian's system folder (`/usr/share/chromium/extensions`, under `root`)
    /// when it holds a folder whose manifest gives one of `ids`; nil otherwise.
    public static func systemFolderEntry(root: String = "", ids: [String]) -> String? {
        let folder = root + "/usr/share/chromium/extensions"
        for name in ((try? FileSystem.listDirectory(folder)) ?? []).sorted() where ProfileFile.isPlainName(name) {
            let path = folder + "/" + name
            guard let identity = try? ExtensionIdentity.load(extensionDirectory: path) else { continue }
            if identity.chromiumIDs.contains(where: ids.contains) { return path }
        }
        return nil
    }
}
