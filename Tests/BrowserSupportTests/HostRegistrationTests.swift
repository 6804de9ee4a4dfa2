import BridgeSystem
import Testing

@testable import BrowserSupport

/// The manifests and configuration that install writes and the Debian package carries come from
/// here: the browser must find the host, allow exactly the extension's ids, and the host must read
/// its configuration.
@Suite struct HostRegistrationTests {
    let identity = ExtensionIdentity(
        chromiumIDs: [String(repeating: "a", count: 32)], firefoxIDs: ["app@example.com"])

    @Test func manifests_onePerFolder_allowingEachFamilysIDs() throws {
        let browsers = BrowserCatalog.all
        let files = try HostRegistration.manifests(
            hostName: "com.example.app", hostPath: "/usr/lib/com.example.app/app-host", browsers: browsers,
            identity: identity
        ) { (browser) throws(InstallError) in .target(for: browser, home: "/home/u", system: true) }
        #expect(Set(files.map(\.path)).count == files.count)
        let firefox = try #require(files.first { $0.kind == .manifest(browser: "firefox") })
        let text = String(decoding: firefox.bytes, as: UTF8.self)
        #expect(text.contains("app@example.com") && !text.contains("chrome-extension://"))
        let chromium = try #require(files.first { $0.kind == .manifest(browser: "chromium") })
        #expect(chromium.path == "/etc/chromium/native-messaging-hosts/com.example.app.json")
        #expect(
            String(decoding: chromium.bytes, as: UTF8.self).contains("chrome-extension://\(identity.chromiumIDs[0])/"))
    }

    @Test func manifests_passOnWhatTheLocationRefuses() {
        #expect(throws: InstallError.firefoxWithProfile) {
            try HostRegistration.manifests(
                hostName: "com.example.app", hostPath: "/h", browsers: BrowserCatalog.all, identity: identity
            ) { (_) throws(InstallError) in throw .firefoxWithProfile }
        }
    }

    @Test func configuration_besideTheHost_readBackAsWritten_saysWhoWroteIt() throws {
        let file = try HostRegistration.configuration(
            hostPath: "/opt/app/app-host", identity: identity, group: "group.com.example.app", logLevel: "debug",
            writtenBy: "part of the app package")
        #expect(file.path == "/opt/app/app-host.conf")
        #expect(file.kind == .configuration)
        let text = String(decoding: file.bytes, as: UTF8.self)
        #expect(text.hasPrefix("# extension-bridge-host configuration: part of the app package.\n"))
        let callers = identity.chromiumOrigins + identity.firefoxIDs
        let lines = text.split(separator: "\n").dropFirst().map(String.init)
        #expect(
            lines == ["format = 1", "group = group.com.example.app", "log = debug"] + callers.map { "allow = \($0)" })
        let installs = try HostRegistration.configuration(
            hostPath: "/opt/app/app-host", identity: identity, group: nil, logLevel: nil)
        #expect(String(decoding: installs.bytes, as: UTF8.self).contains("written by `extension-bridge install`"))
    }

    @Test func configuration_refusesAGroupItCannotHold() {
        #expect(throws: InstallError.invalidGroupID("a b")) {
            try HostRegistration.configuration(hostPath: "/h", identity: identity, group: "a b", logLevel: nil)
        }
    }
}
