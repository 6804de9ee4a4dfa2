/// Every browser ExtensionBridge knows.
///
/// Windows reads the registry instead of folders:
/// `HKCU\Software\Google\Chrome\NativeMessagingHosts\<name>` (Chromium family,
/// with `Chromium`, `Microsoft\Edge`, `BraveSoftware\Brave-Browser`, `Vivaldi`)
/// and `HKCU\Software\Mozilla\NativeMessagingHosts\<name>` (Firefox), each with
/// a default value that is the manifest's path. Documented, not implemented.
public enum BrowserCatalog {
    public static let all: [Browser] = [
        chromiumFamily(
            "chrome", "Google Chrome", config: ".config/google-chrome", system: "/etc/opt/chrome",
            mac: "Google/Chrome", macSystem: "/Library/Google/Chrome", flatpak: ("com.google.Chrome", "google-chrome"),
            commands: ["google-chrome", "google-chrome-stable"],
            executables: ["/opt/google/chrome/chrome", "/usr/bin/google-chrome-stable"], app: "Google Chrome.app"),
        chromiumFamily(
            "chrome-beta", "Google Chrome Beta", config: ".config/google-chrome-beta", system: "/etc/opt/chrome",
            mac: "Google/Chrome Beta", macSystem: "/Library/Google/Chrome", flatpak: nil,
            commands: ["google-chrome-beta"],
            executables: ["/opt/google/chrome-beta/chrome", "/usr/bin/google-chrome-beta"],
            app: "Google Chrome Beta.app"),
        chromiumFamily(
            "chrome-dev", "Google Chrome Dev", config: ".config/google-chrome-unstable", system: "/etc/opt/chrome",
            mac: "Google/Chrome Dev", macSystem: "/Library/Google/Chrome", flatpak: nil,
            commands: ["google-chrome-unstable"],
            executables: ["/opt/google/chrome-unstable/chrome", "/usr/bin/google-chrome-unstable"],
            app: "Google Chrome Dev.app"),
        Browser(
            id: "chromium", displayName: "Chromium", family: .chromium, linuxConfig: ".config/chromium",
            linuxUserHosts: ".config/chromium/NativeMessagingHosts",
            linuxSystemHosts: "/etc/chromium/native-messaging-hosts",
            macUserHosts: "Library/Application Support/Chromium/NativeMessagingHosts",
            macSystemHosts: "/Library/Application Support/Chromium/NativeMessagingHosts",
            flatpakID: "org.chromium.Chromium", flatpakHosts: "config/chromium/NativeMessagingHosts",
            linuxCommands: ["chromium", "chromium-browser"],
            linuxExecutables: [
                "/usr/bin/chromium", "/usr/lib/chromium/chromium", "/usr/bin/chromium-browser",
                "/usr/lib/chromium-browser/chromium-browser", "/usr/lib64/chromium-browser/chromium-browser",
            ],
            macApplication: "Chromium.app"),
        chromiumFamily(
            "edge", "Microsoft Edge", config: ".config/microsoft-edge", system: "/etc/opt/edge", mac: "Microsoft Edge",
            macSystem: "/Library/Microsoft/Edge", flatpak: ("com.microsoft.Edge", "microsoft-edge"),
            commands: ["microsoft-edge", "microsoft-edge-stable"],
            executables: ["/opt/microsoft/msedge/msedge", "/usr/bin/microsoft-edge"], app: "Microsoft Edge.app"),
        chromiumFamily(
            "brave", "Brave", config: ".config/BraveSoftware/Brave-Browser", system: "/etc/opt/brave",
            mac: "BraveSoftware/Brave-Browser", macSystem: "/Library/Application Support/BraveSoftware/Brave-Browser",
            flatpak: ("com.brave.Browser", "BraveSoftware/Brave-Browser"),
            commands: ["brave-browser", "brave"],
            executables: ["/opt/brave.com/brave/brave", "/usr/bin/brave-browser"], app: "Brave Browser.app"),
        chromiumFamily(
            "vivaldi", "Vivaldi", config: ".config/vivaldi", system: "/etc/opt/vivaldi", mac: "Vivaldi",
            macSystem: "/Library/Application Support/Vivaldi", flatpak: ("com.vivaldi.Vivaldi", "vivaldi"),
            commands: ["vivaldi", "vivaldi-stable"], executables: ["/opt/vivaldi/vivaldi", "/usr/bin/vivaldi"],
            app: "Vivaldi.app"),
        Browser(
            id: "firefox", displayName: "Firefox", family: .firefox, linuxConfig: ".mozilla",
            linuxUserHosts: ".mozilla/native-messaging-hosts",
            linuxSystemHosts: "/usr/lib/mozilla/native-messaging-hosts",
            macUserHosts: "Library/Application Support/Mozilla/NativeMessagingHosts",
            macSystemHosts: "/Library/Application Support/Mozilla/NativeMessagingHosts",
            flatpakID: "org.mozilla.firefox", flatpakHosts: ".mozilla/native-messaging-hosts",
            linuxCommands: ["firefox", "firefox-esr"],
            linuxExecutables: [
                "/usr/bin/firefox", "/usr/bin/firefox-esr", "/usr/lib/firefox/firefox",
                "/usr/lib/firefox-esr/firefox-esr",
                "/usr/lib64/firefox/firefox", "/opt/firefox/firefox",
            ],
            macApplication: "Firefox.app"),
        Browser(
            id: "librewolf", displayName: "LibreWolf", family: .firefox, linuxConfig: ".librewolf",
            linuxUserHosts: ".librewolf/native-messaging-hosts",
            linuxSystemHosts: "/usr/lib/librewolf/native-messaging-hosts",
            macUserHosts: "Library/Application Support/LibreWolf/NativeMessagingHosts",
            macSystemHosts: "/Library/Application Support/LibreWolf/NativeMessagingHosts",
            flatpakID: "io.gitlab.librewolf-community", flatpakHosts: ".librewolf/native-messaging-hosts",
            linuxCommands: ["librewolf"],
            linuxExecutables: ["/usr/bin/librewolf", "/usr/lib/librewolf/librewolf", "/opt/librewolf/librewolf"],
            macApplication: "LibreWolf.app"),
    ]

    /// The browser named `id`.
    public static func named(_ id: String) -> Browser? { all.first { $0.id == id } }

    private static func chromiumFamily(
        _ id: String, _ name: String, config: String, system: String, mac: String, macSystem: String,
        flatpak: (String, String)?, commands: [String], executables: [String], app: String
    ) -> Browser {
        Browser(
            id: id, displayName: name, family: .chromium, linuxConfig: config,
            linuxUserHosts: config + "/NativeMessagingHosts", linuxSystemHosts: system + "/native-messaging-hosts",
            macUserHosts: "Library/Application Support/" + mac + "/NativeMessagingHosts",
            macSystemHosts: macSystem + "/NativeMessagingHosts", flatpakID: flatpak?.0,
            flatpakHosts: flatpak.map { "config/" + $0.1 + "/NativeMessagingHosts" }, linuxCommands: commands,
            linuxExecutables: executables, macApplication: app)
    }
}
