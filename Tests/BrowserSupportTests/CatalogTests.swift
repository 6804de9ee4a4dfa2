import BridgeJSON
import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

@Suite struct CatalogTests {
    @Test func everyBrowserHasLinuxAndMacFolders_andKnownIds() {
        #expect(
            BrowserCatalog.all.map(\.id) == [
                "chrome", "chrome-beta", "chrome-dev", "chromium", "edge", "brave", "vivaldi", "firefox", "librewolf",
            ])
        for browser in BrowserCatalog.all {
            #expect(browser.linuxSystemHosts.hasPrefix("/"))
            #expect(browser.macSystemHosts.hasPrefix("/"))
            #expect(!browser.linuxUserHosts.hasPrefix("/"))
        }
    }

    @Test func locations_includeFlatpakOnLinux() {
        #if os(Linux)
            let chromium = BrowserCatalog.named("chromium")
            let locations = chromium.map { HostLocation.all(for: $0, home: "/h") } ?? []
            #expect(
                locations.map(\.folder) == [
                    "/h/.config/chromium/NativeMessagingHosts", "/etc/chromium/native-messaging-hosts",
                    "/h/.var/app/org.chromium.Chromium/config/chromium/NativeMessagingHosts",
                ])
        #endif
    }
}
