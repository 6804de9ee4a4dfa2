import BridgeSystem

extension Doctor {
    /// One row per profile of `browser`: is our extension there, on, and (Firefox)
    /// allowed on web pages. Never `.error`: a profile without it still lets the
    /// others work, so these rows are warnings at worst.
    /// - Parameters:
    ///   - browser: the browser whose profiles are read.
    ///   - userDataDirectory: Chromium's `--user-data-dir`, instead of the default folder.
    /// - Returns: the rows, empty when the browser keeps no profiles for this user.
    public func profileChecks(browser: Browser, userDataDirectory: String?) -> [DoctorCheck] {
        let list: ProfileList
        let systemFolder: String?
        let folder: String
        switch browser.family {
        case .chromium:
            folder = userDataDirectory ?? FileSystem.parentPath(home + "/" + browser.linuxUserHosts)
            list = ChromiumProfiles.list(userDataDirectory: folder)
            systemFolder =
                browser.id == "chromium"
                ? ChromiumProfiles.systemFolderEntry(root: systemRoot, ids: identity.chromiumIDs) : nil
        case .firefox:
            folder = home + "/" + (FirefoxProfiles.iniFolders(for: browser).first ?? browser.linuxConfig)
            list = FirefoxProfiles.list(browser: browser, home: home)
            systemFolder =
                browser.id == "firefox"
                ? FirefoxProfiles.systemFolderEntry(root: systemRoot, ids: identity.firefoxIDs) : nil
        }
        // A browser never started has no profile: whether it has the extension cannot be seen yet.
        if list.profiles.isEmpty && list.problems.isEmpty {
            return [noProfileCheck(browser: browser, folder: folder, systemFolder: systemFolder)]
        }
        var checks = list.problems.map {
            DoctorCheck(
                browser: browser.id, scope: "profile", path: $0.path, status: .warning, detail: $0.reason,
                fix: "check that file: \(browser.displayName) did not write this")
        }
        for profile in list.profiles {
            let presence =
                browser.family == .chromium
                ? ChromiumProfiles.presence(
                    profilePath: profile.path, ids: identity.chromiumIDs, systemFolder: systemFolder)
                : FirefoxProfiles.presence(
                    profilePath: profile.path, ids: identity.firefoxIDs, systemFolder: systemFolder)
            checks.append(
                Doctor.check(
                    presence, browser: browser, profile: profile,
                    install: browser.readsExternalExtensions && !Platform.isMacOS
                        ? command(installing: browser, userDataDirectory: userDataDirectory, crx: true) : nil))
        }
        return checks
    }

    /// The row for a browser with no profile yet. Starting it once shows whether it has the extension
    /// where something will give it one: Chromium-family browsers from install --crx's External
    /// Extensions file, Firefox from the system add-on folder. A per-user install cannot give Firefox
    /// the extension (it installs only add-ons signed by Mozilla), so there the row says that instead.
    func noProfileCheck(browser: Browser, folder: String, systemFolder: String?) -> DoctorCheck {
        var check = DoctorCheck(
            browser: browser.id, scope: "profile", path: folder, status: .warning,
            detail: "no \(browser.displayName) profile yet, so doctor cannot see whether the extension is installed",
            fix: "start \(browser.displayName) once, then run `\(tool) doctor\(bridgeArguments)` again")
        if browser.family == .firefox && systemFolder == nil {
            check.detail =
                "no \(browser.displayName) profile yet; no install for one user gives \(browser.displayName) the "
                + "extension: it installs only add-ons signed by Mozilla"
            check.fix =
                "install the signed add-on (addons.mozilla.org or a signed .xpi); to try it, start "
                + "\(browser.displayName), open about:debugging, This Firefox, Load Temporary Add-on, and pick its "
                + "manifest.json"
        }
        return check
    }

    /// The doctor's row for one profile's `presence`, with a fix a user can follow.
    /// - Parameter install: the command that installs the extension into `browser` (`install --crx`),
    ///   or nil where none does (Google Chrome takes the Web Store's only, Firefox signed add-ons only).
    public static func check(
        _ presence: ExtensionPresence, browser: Browser, profile: BrowserProfile, install: String? = nil
    ) -> DoctorCheck {
        var check = DoctorCheck(
            browser: browser.id, scope: "profile", path: profile.path, status: .warning, detail: "", fix: nil)
        let chromium = browser.family == .chromium
        let page = chromium ? "chrome://extensions" : "about:addons"
        let name = "ExtensionBridge"
        let profileNote = " (profile \(profile.name))"
        switch presence {
        case .enabled(let id, let route):
            check.status = .ok
            check.detail = "\(id) \(route.description), enabled" + (chromium ? "" : ", host access granted")
        case .disabled(let id, let route, let byUser, let reason):
            check.detail = "\(id) \(route.description), " + (byUser ? "disabled by you" : "disabled (\(reason))")
            check.fix =
                byUser || chromium
                ? "open \(page) and switch \(name) on\(profileNote)"
                : "open about:addons and look at \(name)'s message\(profileNote); restart Firefox if it says "
                    + "it will be enabled after a restart"
        case .hostAccessWithdrawn(let id, let route):
            check.detail = "\(id) \(route.description), enabled; host access not granted: content scripts cannot run"
            check.fix =
                "open about:addons → \(name) → Permissions and allow access to all websites, "
                + "or open the \(name) popup and press 'Allow'\(profileNote)"
        case .removedByUser(let id):
            check.detail = "\(id) removed by you; \(browser.displayName) will not install it again by itself"
            check.fix =
                "install it again: remove \(id) from extensions.external_uninstalls in "
                + "\(profile.path)/Preferences while \(browser.displayName) is closed, or load it from \(page)"
        case .notInstalled(let systemFolder):
            if let systemFolder {
                check.detail = "not installed yet; the system folder has it (\(systemFolder))"
                check.fix = "restart \(browser.displayName)\(profileNote)"
            } else {
                check.detail = "not installed"
                // Only commands this machine has: the installed CLI, or the browser's own page.
                if let install {
                    check.fix = "install it: \(install)   (\(browser.displayName) installs it at its next start)"
                } else if chromium {
                    check.fix =
                        "\(browser.displayName) installs extensions only from the Chrome Web Store; to try it, open "
                        + "chrome://extensions, turn on Developer mode and Load unpacked the extension folder"
                } else {
                    check.fix =
                        "Firefox installs only add-ons signed by Mozilla (the signed add-on or .xpi); to try it, "
                        + "open about:debugging, This Firefox, Load Temporary Add-on, and pick its manifest.json"
                }
            }
        case .unreadable(let reason):
            check.detail = "cannot tell whether \(name) is installed: \(reason)"
            check.fix = "open \(page) in this profile to check by hand\(profileNote)"
        }
        return check
    }
}
