import BridgeSystem

/// The browsers `run` drives: Chromium through its DevTools pipe, Firefox through its
/// remote debugging protocol.
public enum RunBrowser: String, CaseIterable, Sendable {
    case chromium, firefox

    /// The executables tried, in order: absolute paths as they are, names on `PATH`.
    /// Debian's `/usr/lib/chromium/chromium` comes before the `/usr/bin/chromium` wrapper,
    /// which adds the system's extension folders (a second copy of an installed bridge).
    public var candidates: [String] {
        switch self {
        case .chromium:
            return [
                "/usr/lib/chromium/chromium", "chromium", "chromium-browser",
                "/usr/lib/chromium-browser/chromium-browser",
            ]
        case .firefox:
            return ["firefox-esr", "firefox", "/usr/lib/firefox-esr/firefox-esr", "/usr/lib/firefox/firefox"]
        }
    }

    /// The first candidate that exists; nil when none does.
    public func executable(searchPath: String?) -> String? {
        for candidate in candidates {
            if let found = Platform.executable(named: candidate, searchPath: searchPath) { return found }
        }
        return nil
    }
}
