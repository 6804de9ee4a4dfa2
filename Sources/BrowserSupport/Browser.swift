/// Where one browser looks for native-messaging host manifests.
public struct Browser: Equatable, Sendable {
    /// The name used on the command line (`chrome`, `firefox`, …).
    public var id: String
    public var displayName: String
    public var family: BrowserFamily
    /// Linux: the profile folder whose presence means "installed", relative to HOME.
    public var linuxConfig: String
    /// Linux: the user-level host folder, relative to HOME.
    public var linuxUserHosts: String
    /// Linux: the system-level host folder.
    public var linuxSystemHosts: String
    /// macOS: the user-level host folder, relative to HOME.
    public var macUserHosts: String
    /// macOS: the system-level host folder.
    public var macSystemHosts: String
    /// The Flatpak application id, when the browser ships as one.
    public var flatpakID: String?
    /// Linux: the host folder inside the Flatpak's home, relative to `~/.var/app/<id>`.
    public var flatpakHosts: String?
    /// Linux: command names looked up on `PATH` (`chromium`, `firefox-esr`, …).
    public var linuxCommands: [String] = []
    /// Linux: absolute paths where the vendors' packages put the executable.
    public var linuxExecutables: [String] = []
    /// macOS: the application bundle's name, looked up in `/Applications` and `~/Applications`.
    public var macApplication: String = ""
    /// Installs a CRX named by `<user data>/External Extensions/<id>.json` at its next start.
    /// Chromium does (checked here); Google Chrome ignores that folder (its users need the
    /// Web Store); Edge, Brave and Vivaldi are Chromium builds without Google's branding and
    /// are expected to, untested here.
    public var readsExternalExtensions: Bool {
        family == .chromium && !id.hasPrefix("chrome")
    }
}
