import BridgeProtocol
import BridgeSystem

/// Finds the browsers installed for a user: by executable (on `PATH` or where
/// the vendors' packages put it), by profile folder, or by Flatpak. A browser
/// installed but never started counts: it reads its manifest folder when it
/// first starts, even if that folder was made before.
///
/// `install` (the `detected` default) and `doctor` use the same detector, so
/// they agree about which browsers are present.
public struct BrowserDetector: Sendable {
    public var home: String
    /// The `PATH` entries searched for the browsers' commands.
    public var searchPath: [String]
    /// Every absolute path looked at (PATH entries, vendor folders, system
    /// Flatpaks) is taken under this folder; "" is the real root.
    public var root: String
    public var probe: FileProbe

    public init(home: String, searchPath: [String], root: String = "", probe: FileProbe = .real) {
        self.home = home
        self.searchPath = searchPath
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        self.probe = probe
    }

    /// A detector for a process environment: `HOME`, `PATH`, and
    /// `EXTENSION_BRIDGE_DETECT_ROOT` (tests; a chroot) as the root.
    public static func forEnvironment(home: String, environment: Environment) -> BrowserDetector {
        BrowserDetector(
            home: home, searchPath: (environment["PATH"] ?? "").split(separator: ":").map(String.init),
            root: environment[EnvironmentVariable.detectRoot] ?? "")
    }

    /// The first piece of evidence that `browser` is present, or nil.
    public func evidence(for browser: Browser) -> BrowserEvidence? {
        if Platform.isMacOS {
            for folder in [root + "/Applications", home + "/Applications"] where !browser.macApplication.isEmpty {
                let app = folder + "/" + browser.macApplication
                if probe.exists(app) { return .executable(app) }
            }
            let config = home + "/" + FileSystem.parentPath(browser.macUserHosts)
            return probe.exists(config) ? .profile(config) : nil
        }
        for command in browser.linuxCommands {
            for directory in searchPath where directory.hasPrefix("/") {
                let path = directory + "/" + command
                if probe.isExecutableFile(root + path) { return .executable(path) }
            }
        }
        for path in browser.linuxExecutables where probe.isExecutableFile(root + path) {
            return .executable(path)
        }
        let config = home + "/" + browser.linuxConfig
        if probe.exists(config) { return .profile(config) }
        if let app = browser.flatpakID {
            for folder in [home + "/.var/app", home + "/.local/share/flatpak/app", root + "/var/lib/flatpak/app"] {
                let path = folder + "/" + app
                if probe.exists(path) { return .flatpak(path) }
            }
        }
        return nil
    }

    /// The present browsers among `browsers`, in catalog order, with their evidence.
    public func detect(_ browsers: [Browser] = BrowserCatalog.all) -> [(browser: Browser, evidence: BrowserEvidence)] {
        browsers.compactMap { browser in evidence(for: browser).map { (browser, $0) } }
    }

    /// True when `browser` is present.
    public func isPresent(_ browser: Browser) -> Bool { evidence(for: browser) != nil }
}
