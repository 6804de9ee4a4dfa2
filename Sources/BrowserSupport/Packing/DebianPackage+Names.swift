import BridgeProtocol
import BridgeSystem

extension DebianPackage {
    /// ExtensionBridge's own package.
    public static let extensionBridgeName = "extension-bridge"

    /// Names the distribution uses for the browsers every bridge's package works with, their parts
    /// and the vendors' own packages: no package built here may take one (it would replace the
    /// browser when installed).
    static let distributionNames: Set<String> = [
        "chromium", "chromium-browser", "chromium-common", "chromium-sandbox", "chromium-driver", "chromium-l10n",
        "chromium-shell", "firefox", "firefox-esr", "firefox-l10n", "firefox-esr-l10n", "thunderbird",
        "google-chrome-stable", "google-chrome-beta", "google-chrome-unstable", "microsoft-edge-stable",
        "microsoft-edge-beta", "microsoft-edge-dev", "brave-browser", "brave-browser-beta", "brave-browser-nightly",
        "vivaldi-stable", "vivaldi-snapshot", "opera-stable", "epiphany-browser", "falkon", "konqueror", "midori",
        "torbrowser-launcher", "chrome", "edge", "brave", "vivaldi", "opera", "google-chrome", "microsoft-edge",
    ]

    /// Families of those names: a browser's parts and translations (`chromium-…`, `firefox-esr-l10n-de`).
    static let distributionPrefixes = [
        "chromium-", "firefox-", "google-chrome-", "microsoft-edge-", "brave-browser-", "vivaldi-", "opera-",
    ]

    /// ExtensionBridge's own names, which only its own package takes.
    static let ownNames: Set<String> = [extensionBridgeName, "extensionbridge"]

    /// Why no package built here may be called `name`, or nil: it is the distribution's (`distributionNames`).
    static func distributionUse(of name: String) -> String? {
        let lower = name.lowercased()
        guard distributionNames.contains(lower) || distributionPrefixes.contains(where: lower.hasPrefix) else {
            return nil
        }
        return "'\(lower)' is a package name the distribution uses (a browser or a part of one): a package of that "
            + "name would replace it when installed"
    }

    /// Why a bridge's package may not be called `name`, or nil when it may: the distribution's
    /// (`distributionUse(of:)`), or ExtensionBridge's own.
    public static func reservedUse(of name: String) -> String? {
        if let reason = distributionUse(of: name) { return reason }
        let lower = name.lowercased()
        guard ownNames.contains(lower) || lower.hasPrefix(extensionBridgeName + "-") else { return nil }
        return "'\(lower)' is ExtensionBridge's own package name: a bridge's package of that name would replace it"
    }

    /// The Debian package name of a bridge made by `new`: its name in lower case, `_` as `-`
    /// (`BridgeDescription.debianName`).
    /// - Throws: `PackError.debianControl` for a name Debian refuses or one `reservedUse(of:)` names.
    public static func packageName(ofBridge bridgeName: String) throws(PackError) -> String {
        let name = bridgeName.lowercased()
        if let reason = reservedUse(of: name) {
            throw .debianControl(reason + "; rename the bridge (its \"name\" in bridge.json)")
        }
        guard isPackageName(name) else {
            throw .debianControl(
                "the package name '\(PackError.visible(name))' (the bridge's name in lower case, _ as -) is not a Debian "
                    + "name (lowercase letters, digits, +, -, .; at least two, starting with a letter or digit); "
                    + "rename the bridge")
        }
        return name
    }

    /// True for a value a control, copyright or changelog field can hold as one line: no line
    /// break or other control character, no line or paragraph separator, no bidi control.
    public static func isOneLine(_ value: String) -> Bool {
        !value.unicodeScalars.contains(where: HostConfiguration.isUnsafe)
    }
}
