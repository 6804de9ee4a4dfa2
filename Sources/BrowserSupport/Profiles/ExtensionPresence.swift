/// Whether a browser profile has our extension, read from the browser's own files.
public enum ExtensionPresence: Equatable, Sendable {
    /// Installed and on; for Firefox, with its host access granted.
    case enabled(id: String, route: InstallRoute)
    /// Installed but switched off; `byUser` when the user did it (Chromium's
    /// disable reason 1, Firefox's `userDisabled`).
    case disabled(id: String, route: InstallRoute, byUser: Bool, reason: String)
    /// Installed and on, but without access to http and https pages: no content script runs.
    case hostAccessWithdrawn(id: String, route: InstallRoute)
    /// Installed from an external source, then removed by the user (Chromium's
    /// `extensions.external_uninstalls`): the browser will not install it again by itself.
    case removedByUser(id: String)
    /// Not in the profile. `systemFolder`: the system folder has it, so the
    /// browser picks it up when restarted.
    case notInstalled(systemFolder: String?)
    /// The profile's records could not be read.
    case unreadable(reason: String)
}
