import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

@Suite struct ChromiumProfilesTests {
    let id = ProfileFixtures.chromiumID

    func presence(_ preferences: String, ids: [String]? = nil, systemFolder: String? = nil) -> ExtensionPresence {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        folder.write("Default/Preferences", preferences)
        return ChromiumProfiles.presence(
            profilePath: folder.path + "/Default", ids: ids ?? [id], systemFolder: systemFolder)
    }

    @Test func commandLineLoaded_isEnabled() {
        let result = presence(ProfileFixtures.chromiumPreferences([id: ProfileFixtures.chromiumEntry()]))
        #expect(result == .enabled(id: id, route: .chromium(location: 8)))
    }

    @Test func systemFolderCopy_isNamedAsTheSystemFolder() {
        let entry = ProfileFixtures.chromiumEntry(path: "/usr/share/extension-bridge/extension")
        #expect(
            presence(ProfileFixtures.chromiumPreferences([id: entry]))
                == .enabled(id: id, route: .chromiumSystemFolder))
    }

    @Test func externalExtensionsFile_isLocationTwo() {
        let entry = ProfileFixtures.chromiumEntry(location: 2, path: "\(id)/0.1.0_0")
        let result = presence(ProfileFixtures.chromiumPreferences([id: entry]))
        #expect(result == .enabled(id: id, route: .chromium(location: 2)))
        #expect(InstallRoute.chromium(location: 2).description.contains("External Extensions"))
    }

    @Test func disabledByUser_listOfReasons_fixSwitchesItOn() {
        let entry = ProfileFixtures.chromiumEntry(disableReasons: "[1]")
        let result = presence(ProfileFixtures.chromiumPreferences([id: entry]))
        #expect(result == .disabled(id: id, route: .chromium(location: 8), byUser: true, reason: "disable_reasons 1"))
        let row = check(result)
        #expect(row.status == .warning && row.detail.hasSuffix("disabled by you"))
        #expect(row.fix == "open chrome://extensions and switch ExtensionBridge on (profile Default)")
    }

    @Test func olderBitMaskAndState_areUnderstood() {
        let mask = ProfileFixtures.chromiumEntry(disableReasons: "5")
        #expect(
            presence(ProfileFixtures.chromiumPreferences([id: mask]))
                == .disabled(id: id, route: .chromium(location: 8), byUser: true, reason: "disable_reasons 1, 4"))
        let state = #"{"location":1,"state":0}"#
        #expect(
            presence(ProfileFixtures.chromiumPreferences([id: state]))
                == .disabled(id: id, route: .chromium(location: 1), byUser: false, reason: "state 0"))
    }

    @Test func missing_isAWarningThatSaysHowToInstall() {
        let result = presence(ProfileFixtures.chromiumPreferences([:]))
        #expect(result == .notInstalled(systemFolder: nil))
        let row = check(result)
        #expect(row.status == .warning && row.detail == "not installed")
        // No package or repository script the user may not have: the browser's own page, or the
        // installed CLI when the caller knows one installs it.
        #expect(row.fix?.contains(".deb") == false && row.fix?.contains("scripts/") == false)
        #expect(row.fix?.contains("chrome://extensions") == true)
        let installable = Doctor.check(
            result, browser: BrowserCatalog.named("chromium") ?? BrowserCatalog.all[0],
            profile: BrowserProfile(name: "Default", path: "/p/Default"),
            install: "extension-bridge install --crx --browser chromium")
        #expect(
            installable.fix
                == "install it: extension-bridge install --crx --browser chromium   (Chromium installs it at its next start)"
        )
    }

    /// Before Chromium's first start there is no profile: a warning saying so, never silence (which
    /// left only ok rows and "Everything checks out.").
    @Test func noProfileYet_isAWarningThatSaysToStartTheBrowser() {
        let home = TemporaryFolder()
        defer { home.remove() }
        var doctor = Doctor(
            home: home.path, hostName: "org.extensionbridge.host",
            identity: ExtensionIdentity(chromiumIDs: [String(repeating: "a", count: 32)], firefoxIDs: []),
            passEnvironment: [:])
        doctor.systemRoot = home.path + "/no-system"
        let rows = BrowserCatalog.named("chromium").map { doctor.profileChecks(browser: $0, userDataDirectory: nil) }
        #expect(rows?.count == 1)
        #expect(rows?.first?.status == .warning)
        #expect(rows?.first?.path == home.path + "/.config/chromium")
        #expect(rows?.first?.detail.hasPrefix("no Chromium profile yet") == true)
        #expect(rows?.first?.fix == "start Chromium once, then run `extension-bridge doctor` again")
        #expect(Doctor.summary(rows ?? []) != "Everything checks out.")
    }

    @Test func missing_butInTheSystemFolder_saysRestart() {
        let result = presence(
            ProfileFixtures.chromiumPreferences([:]), systemFolder: "/usr/share/chromium/extensions/eb")
        #expect(check(result).fix == "restart Chromium (profile Default)")
    }

    @Test func removedByUser_isNamedWithItsFix() {
        let result = presence(ProfileFixtures.chromiumPreferences([:], externalUninstalls: [id]))
        #expect(result == .removedByUser(id: id))
        #expect(check(result).detail.contains("removed by you"))
        #expect(check(result).fix?.contains("external_uninstalls") == true)
    }

    @Test func anyOfTheIds_counts_enabledBeforeDisabled() {
        let other = String(repeating: "c", count: 32)
        let prefs = ProfileFixtures.chromiumPreferences([
            id: ProfileFixtures.chromiumEntry(disableReasons: "[1]"),
            other: ProfileFixtures.chromiumEntry(location: 2),
        ])
        #expect(presence(prefs, ids: [id, other]) == .enabled(id: other, route: .chromium(location: 2)))
    }

    @Test func settingsOnlyInSecurePreferences_areRead() {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        folder.write("Default/Preferences", #"{"extensions":{"alerts":{}}}"#)
        folder.write(
            "Default/Secure Preferences", ProfileFixtures.chromiumPreferences([id: ProfileFixtures.chromiumEntry()]))
        #expect(
            ChromiumProfiles.presence(profilePath: folder.path + "/Default", ids: [id])
                == .enabled(id: id, route: .chromium(location: 8)))
    }

    @Test(arguments: [
        "not json", "[1,2]", #"{"extensions":"x"}"#,
        #"{"extensions":{"settings":{"honlgoealnaplikdeeidpcknncfcnfmo":7}}}"#,
        String(repeating: "[", count: 100_000),
    ])
    func hostilePreferences_neverTrap(text: String) {
        let result = presence(text)
        switch result {
        case .unreadable, .notInstalled: break
        default: Issue.record("unexpected \(result)")
        }
    }

    @Test func hugePreferences_isRefusedByItsSize() {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        folder.write("Default/Preferences", String(repeating: " ", count: 2048) + "{}")
        let result = ChromiumProfiles.presence(profilePath: folder.path + "/Default", ids: [id])
        #expect(result == .notInstalled(systemFolder: nil))
        guard case .unusable(let reason) = ProfileFile.readJSON(folder.path + "/Default/Preferences", limit: 1024)
        else {
            Issue.record("a file over the limit was read")
            return
        }
        #expect(reason.contains("more than the 1024"))
    }

    @Test func preferencesThatIsAFolderOrMissing_isUnreadable() {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        folder.makeFolder("Default/Preferences")
        guard case .unreadable(let reason) = ChromiumProfiles.presence(profilePath: folder.path + "/Default", ids: [id])
        else {
            Issue.record("a folder was read as Preferences")
            return
        }
        #expect(reason.contains("not a regular file"))
        guard case .unreadable(let gone) = ChromiumProfiles.presence(profilePath: folder.path + "/Nope", ids: [id])
        else {
            Issue.record("a missing profile was not named")
            return
        }
        #expect(gone.contains("missing"))
    }

    @Test func list_readsLocalState_refusingNamesThatAreNotFolders() {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        folder.write("Local State", ProfileFixtures.localState(["Default", "Profile 1", "../../etc", "."]))
        let list = ChromiumProfiles.list(userDataDirectory: folder.path)
        #expect(list.profiles.map(\.name) == ["Default", "Profile 1"])
        #expect(list.profiles.first?.path == folder.path + "/Default")
        #expect(list.problems.count == 2)
    }

    @Test func list_withoutLocalState_findsProfileFoldersWithPreferences() {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        folder.write("Default/Preferences", "{}")
        folder.write("Profile 3/Preferences", "{}")
        folder.makeFolder("Profile 4")
        folder.write("Crashpad/Preferences", "{}")
        #expect(ChromiumProfiles.list(userDataDirectory: folder.path).profiles.map(\.name) == ["Default", "Profile 3"])
    }

    @Test func symlinkedProfileFolder_isFollowedLikeTheBrowserDoes() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        folder.write(
            "elsewhere/Preferences", ProfileFixtures.chromiumPreferences([id: ProfileFixtures.chromiumEntry()]))
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/Default", withDestinationPath: "elsewhere")
        #expect(ChromiumProfiles.list(userDataDirectory: folder.path).profiles.map(\.name) == ["Default"])
        #expect(
            ChromiumProfiles.presence(profilePath: folder.path + "/Default", ids: [id])
                == .enabled(id: id, route: .chromium(location: 8)))
    }

    @Test func systemFolderEntry_findsOurFolderByItsManifestKey() throws {
        let root = TemporaryFolder()
        defer { root.remove() }
        let manifest = try String(contentsOfFile: repositoryRoot + "/extension/manifest.json", encoding: .utf8)
        root.write("usr/share/chromium/extensions/extension-bridge/manifest.json", manifest)
        root.write("usr/share/chromium/extensions/other/manifest.json", "{}")
        #expect(
            ChromiumProfiles.systemFolderEntry(root: root.path, ids: [id])
                == root.path + "/usr/share/chromium/extensions/extension-bridge")
        #expect(ChromiumProfiles.systemFolderEntry(root: root.path, ids: ["x"]) == nil)
    }

    func check(_ presence: ExtensionPresence) -> DoctorCheck {
        Doctor.check(
            presence, browser: BrowserCatalog.named("chromium") ?? BrowserCatalog.all[0],
            profile: BrowserProfile(name: "Default", path: "/p/Default"))
    }
}
