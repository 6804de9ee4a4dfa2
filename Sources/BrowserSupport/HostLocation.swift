import BridgeSystem

/// One folder a browser reads host manifests from.
public struct HostLocation: Equatable, Sendable {
    public enum Scope: String, Equatable, Sendable {
        case user, system, flatpak
        /// `--user-data-dir DIR`: `DIR/NativeMessagingHosts`.
        case profile
    }

    public var browser: Browser
    public var scope: Scope
    public var folder: String

    /// The manifest file for `hostName` in this folder.
    public func manifestPath(hostName: String) -> String { folder + "/" + hostName + ".json" }

    /// Every folder `browser` reads, in the order doctor reports them; the system folders under
    /// `systemRoot` ("" for the real one; a test's fake root, `EXTENSION_BRIDGE_DETECT_ROOT`).
    public static func all(for browser: Browser, home: String, systemRoot: String = "") -> [HostLocation] {
        if Platform.isMacOS {
            return [
                HostLocation(browser: browser, scope: .user, folder: home + "/" + browser.macUserHosts),
                HostLocation(browser: browser, scope: .system, folder: systemRoot + browser.macSystemHosts),
            ]
        }
        var out = [
            HostLocation(browser: browser, scope: .user, folder: home + "/" + browser.linuxUserHosts),
            HostLocation(browser: browser, scope: .system, folder: systemRoot + browser.linuxSystemHosts),
        ]
        if let app = browser.flatpakID, let hosts = browser.flatpakHosts {
            out.append(HostLocation(browser: browser, scope: .flatpak, folder: "\(home)/.var/app/\(app)/\(hosts)"))
        }
        return out
    }

    /// The folder install writes to for `browser`.
    public static func target(for browser: Browser, home: String, system: Bool) -> HostLocation {
        let locations = all(for: browser, home: home)
        return locations.first { $0.scope == (system ? .system : .user) } ?? locations[0]
    }

    /// `--user-data-dir DIR` for a Chromium-family browser.
    public static func profile(_ directory: String, browser: Browser) -> HostLocation {
        HostLocation(browser: browser, scope: .profile, folder: directory + "/NativeMessagingHosts")
    }
}
