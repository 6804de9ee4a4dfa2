import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

/// The doctor's profile rows end to end over a temporary home.
@Suite struct ExtensionPresenceTests {
    @Test func doctor_readsEveryProfile_andNeverErrors() {
        let home = TemporaryFolder()
        defer { home.remove() }
        let chromiumID = ProfileFixtures.chromiumID
        home.write(".config/chromium/Local State", ProfileFixtures.localState(["Default", "Profile 1"]))
        home.write(
            ".config/chromium/Default/Preferences",
            ProfileFixtures.chromiumPreferences([chromiumID: ProfileFixtures.chromiumEntry()]))
        home.write(".config/chromium/Profile 1/Preferences", ProfileFixtures.chromiumPreferences([:]))
        home.write(".mozilla/firefox/profiles.ini", "[Profile0]\nName=default-esr\nIsRelative=1\nPath=x.default-esr\n")
        home.write(
            ".mozilla/firefox/x.default-esr/extensions.json",
            ProfileFixtures.extensionsJSON([ProfileFixtures.firefoxAddon()]))
        home.write(
            ".mozilla/firefox/x.default-esr/extension-preferences.json",
            ProfileFixtures.extensionPreferences(origins: []))
        var doctor = Doctor(
            home: home.path, hostName: "org.extensionbridge.host",
            identity: ExtensionIdentity(chromiumIDs: [chromiumID], firefoxIDs: [ProfileFixtures.geckoID]),
            passEnvironment: [:])
        doctor.systemRoot = home.path + "/no-system"
        let browsers = ["chromium", "firefox"].compactMap(BrowserCatalog.named)
        let rows = browsers.flatMap { doctor.profileChecks(browser: $0, userDataDirectory: nil) }
        #expect(rows.map(\.status) == [.ok, .warning, .warning])
        #expect(rows.map(\.scope) == ["profile", "profile", "profile"])
        #expect(rows[1].detail == "not installed")
        #expect(rows[2].detail.contains("host access not granted"))
        #expect(rows[2].json["path"]?.stringValue == home.path + "/.mozilla/firefox/x.default-esr")
        // With --system, the profile rows are left out.
        let systemOnly = doctor.run(browsers: browsers, userDataDirectory: nil, systemOnly: true)
        #expect(!systemOnly.contains { $0.scope == "profile" })
    }

    @Test func userDataDirectory_replacesTheDefaultFolder() {
        let home = TemporaryFolder()
        defer { home.remove() }
        home.write("udd/Default/Preferences", ProfileFixtures.chromiumPreferences([:]))
        let doctor = Doctor(
            home: home.path + "/h", hostName: "h", identity: ExtensionIdentity(chromiumIDs: ["a"], firefoxIDs: []),
            passEnvironment: [:])
        let rows = BrowserCatalog.named("chromium").map {
            doctor.profileChecks(browser: $0, userDataDirectory: home.path + "/udd")
        }
        #expect(rows?.map(\.path) == [home.path + "/udd/Default"])
    }

    @Test func unreadableProfileFolder_isAWarningWithADetail() {
        let home = TemporaryFolder()
        defer { home.remove() }
        home.write(".mozilla/firefox/profiles.ini", "[Profile0]\nName=gone\nIsRelative=0\nPath=\(home.path)/nowhere\n")
        let doctor = Doctor(
            home: home.path, hostName: "h", identity: ExtensionIdentity(chromiumIDs: [], firefoxIDs: ["x@y"]),
            passEnvironment: [:])
        let rows =
            BrowserCatalog.named("firefox").map { doctor.profileChecks(browser: $0, userDataDirectory: nil) } ?? []
        #expect(rows.count == 1)
        #expect(rows.first?.status == .warning)
        #expect(rows.first?.detail.contains("the profile folder is missing or not a folder") == true)
    }
}
