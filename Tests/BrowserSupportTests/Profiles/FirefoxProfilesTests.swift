import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

@Suite struct FirefoxProfilesTests {
    let id = ProfileFixtures.geckoID
    let web = ["http://*/*", "https://*/*"]

    func presence(_ addons: [String], origins: [String]?, systemFolder: String? = nil) -> ExtensionPresence {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        folder.write("p/extensions.json", ProfileFixtures.extensionsJSON(addons))
        if let origins {
            folder.write("p/extension-preferences.json", ProfileFixtures.extensionPreferences(origins: origins))
        }
        return FirefoxProfiles.presence(profilePath: folder.path + "/p", ids: [id], systemFolder: systemFolder)
    }

    @Test func profileInstall_withGrantedOrigins_isEnabled() {
        #expect(
            presence([ProfileFixtures.firefoxAddon()], origins: web)
                == .enabled(id: id, route: .firefox(location: "app-profile")))
    }

    @Test func systemFolder_isNamed() {
        let result = presence(
            [ProfileFixtures.firefoxAddon(location: "app-system-share", signedState: "null")], origins: ["<all_urls>"])
        #expect(result == .enabled(id: id, route: .firefox(location: "app-system-share")))
        #expect(
            check(result).detail.contains("installed from the system folder (/usr/share/mozilla/extensions), enabled"))
    }

    @Test func hostAccessWithdrawn_isAWarningWithBothFixes() {
        // What extension-preferences.json holds after ExtensionPermissions.remove of both origins.
        let result = presence([ProfileFixtures.firefoxAddon()], origins: [])
        #expect(result == .hostAccessWithdrawn(id: id, route: .firefox(location: "app-profile")))
        let row = check(result)
        #expect(row.status == .warning)
        #expect(row.detail.hasSuffix("host access not granted: content scripts cannot run"))
        #expect(row.fix?.contains("about:addons → ExtensionBridge → Permissions") == true)
        #expect(row.fix?.contains("press 'Allow'") == true)
    }

    @Test func onlyHttps_orNoPreferencesFile_isNotEnough() {
        #expect(
            presence([ProfileFixtures.firefoxAddon()], origins: ["https://*/*"])
                == .hostAccessWithdrawn(id: id, route: .firefox(location: "app-profile")))
        #expect(
            presence([ProfileFixtures.firefoxAddon()], origins: nil)
                == .hostAccessWithdrawn(id: id, route: .firefox(location: "app-profile")))
    }

    @Test func userDisabled_saysDisabledByYou() {
        let result = presence([ProfileFixtures.firefoxAddon(active: false, userDisabled: true)], origins: web)
        #expect(check(result).detail.hasSuffix("disabled by you"))
        #expect(check(result).fix == "open about:addons and switch ExtensionBridge on (profile default)")
    }

    @Test func appDisabled_namesTheSignature() {
        let result = presence(
            [ProfileFixtures.firefoxAddon(active: false, appDisabled: true, signedState: "-1")], origins: web)
        #expect(
            result
                == .disabled(
                    id: id, route: .firefox(location: "app-profile"), byUser: false,
                    reason: "appDisabled, signedState -1"))
    }

    @Test func hiddenSystemCopy_givesWayToTheVisibleOne() {
        let result = presence(
            [
                ProfileFixtures.firefoxAddon(location: "app-system-share", active: false, visible: false),
                ProfileFixtures.firefoxAddon(),
            ],
            origins: web)
        #expect(result == .enabled(id: id, route: .firefox(location: "app-profile")))
    }

    @Test func missing_namesTheSignedAddOn_orRestartWhenTheSystemFolderHasIt() {
        let result = presence([], origins: nil)
        #expect(result == .notInstalled(systemFolder: nil))
        #expect(check(result).fix?.contains("signed by Mozilla") == true)
        #expect(check(result).fix?.contains(".deb") == false)
        let pending = presence([], origins: nil, systemFolder: "/usr/share/mozilla/extensions/x/\(id)")
        #expect(check(pending).fix == "restart Firefox (profile default)")
    }

    @Test func hostileExtensionsJSON_neverTraps() {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        for text in [
            "", "null", #"{"addons":{"id":1}}"#,
            #"{"addons":[1,"x",{"id":["x"]},{"id":"extension-bridge@extensionbridge.org","active":"yes"}]}"#,
        ] {
            folder.write("p/extensions.json", text)
            _ = FirefoxProfiles.presence(profilePath: folder.path + "/p", ids: [id])
        }
    }

    @Test func profilesINI_relativeAbsoluteAndClimbing() {
        let ini = """
            [General]
            StartWithLastProfile=1

            [Profile1]
            Name=default-esr
            IsRelative=1
            Path=abcd.default-esr
            Default=1

            [Profile0]
            Name=elsewhere
            IsRelative=0
            Path=/data/ff/xyz

            [Profile2]
            Name=climber
            IsRelative=1
            Path=../../../etc

            [Profile3]
            Name=odd
            IsRelative=0
            Path=relative/but/claims/absolute

            [Install3B6073811A6ABF12]
            Default=abcd.default-esr
            """
        let list = FirefoxProfiles.parseINI(ini, folder: "/h/.mozilla/firefox")
        #expect(
            list.profiles == [
                BrowserProfile(name: "default-esr", path: "/h/.mozilla/firefox/abcd.default-esr"),
                BrowserProfile(name: "elsewhere", path: "/data/ff/xyz"),
            ])
        #expect(list.problems.count == 2)
    }

    @Test func list_readsTheClassicAndTheXDGFolder() {
        let home = TemporaryFolder()
        defer { home.remove() }
        home.write(".mozilla/firefox/profiles.ini", "[Profile0]\nName=a\nIsRelative=1\nPath=a.default\n")
        home.write(".config/mozilla/firefox/profiles.ini", "[Profile0]\r\nName=b\r\nIsRelative=1\r\nPath=b.default\r\n")
        let firefox = BrowserCatalog.named("firefox") ?? BrowserCatalog.all[0]
        #expect(FirefoxProfiles.list(browser: firefox, home: home.path).profiles.map(\.name) == ["a", "b"])
    }

    @Test func systemFolderEntry_refusesIdsThatAreNotFileNames() {
        let root = TemporaryFolder()
        defer { root.remove() }
        root.makeFolder("usr/share/mozilla/extensions/\(FirefoxProfiles.applicationID)/\(id)")
        root.makeFolder("usr/share/mozilla/extensions/\(FirefoxProfiles.applicationID)/x")
        #expect(
            FirefoxProfiles.systemFolderEntry(
                root: root.path, ids: ["../\(FirefoxProfiles.applicationID)/x", "..", ""]) == nil)
        #expect(FirefoxProfiles.systemFolderEntry(root: root.path, ids: [id])?.hasSuffix("/" + id) == true)
    }

    func check(_ presence: ExtensionPresence) -> DoctorCheck {
        Doctor.check(
            presence, browser: BrowserCatalog.named("firefox") ?? BrowserCatalog.all[0],
            profile: BrowserProfile(name: "default", path: "/p"))
    }

    /// Before Firefox's first start, after an install for one user: starting Firefox would not give
    /// it the extension (only Mozilla-signed add-ons install per user), so the row says that and
    /// names what does; with the add-on in the system folder, starting Firefox once is the fix.
    @Test func noProfileYet_saysWhatGivesFirefoxTheExtension() throws {
        let home = TemporaryFolder()
        defer { home.remove() }
        var doctor = Doctor(
            home: home.path, hostName: "org.extensionbridge.host",
            identity: ExtensionIdentity(chromiumIDs: [], firefoxIDs: ["a@b"]), passEnvironment: [:])
        doctor.systemRoot = home.path + "/root"
        let firefox = try #require(BrowserCatalog.named("firefox"))
        let perUser = try #require(doctor.profileChecks(browser: firefox, userDataDirectory: nil).first)
        #expect(perUser.status == .warning)
        #expect(perUser.detail.contains("installs only add-ons signed by Mozilla"))
        #expect(perUser.fix?.contains("start Firefox once") == false)
        #expect(perUser.fix?.hasPrefix("install the signed add-on") == true)
        let system = home.path + "/root/usr/share/mozilla/extensions/" + FirefoxProfiles.applicationID + "/a@b"
        try FileManager.default.createDirectory(atPath: system, withIntermediateDirectories: true)
        let packaged = try #require(doctor.profileChecks(browser: firefox, userDataDirectory: nil).first)
        #expect(packaged.fix == "start Firefox once, then run `extension-bridge doctor` again")
    }
}
