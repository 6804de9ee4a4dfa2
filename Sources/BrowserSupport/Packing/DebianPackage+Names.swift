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

    /// Folders of `/usr/share` and `/usr/lib` that the system and many packages share (the FHS's,
    /// Debian policy's and the browsers'): a bridge's package puts its files in `/usr/share/<package>/`
    /// and its host in `/usr/lib/<host name>/`, so a bridge called `Doc` or `Mozilla` would install
    /// into `/usr/share/doc` or `/usr/share/mozilla`, among other packages' files.
    static let sharedFolderNames: Set<String> = [
        "doc", "doc-base", "man", "info", "locale", "locales", "i18n", "mozilla", "applications", "icons", "pixmaps",
        "fonts", "common-licenses", "lintian", "mime", "mime-info", "menu", "perl", "perl5", "python3", "java",
        "javascript", "zoneinfo", "misc", "dict", "games", "sounds", "themes", "backgrounds", "x11", "xml", "sgml",
        "emacs", "vim", "bash-completion", "zsh", "fish", "polkit-1", "dbus-1", "systemd", "udev", "glib-2.0",
        "gtk-doc", "metainfo", "appdata", "help", "gnome", "kde", "debconf", "debhelper", "keyrings",
        "ca-certificates", "bug", "pkgconfig", "aclocal", "terminfo", "tabset", "xsessions", "wayland-sessions",
        "thumbnailers", "gettext", "modules", "firmware", "tmpfiles.d", "sysctl.d", "modprobe.d", "sysusers.d",
        "binfmt.d", "environment.d", "apt", "dpkg", "ssl", "security", "kernel", "init", "lsb", "cgi-bin", "gcc",
        "debug", "jvm", "sudo", "sendmail", "os-release", "share", "lib", "bin", "sbin", "include", "src", "local",
        "etc", "var", "tmp", "usr",
    ]

    /// ExtensionBridge's own names, which only its own package takes.
    static let ownNames: Set<String> = [extensionBridgeName, "extensionbridge"]

    /// Why no package built here may be called `name`, or nil: it is the distribution's (`distributionNames`).
    static func distributionUse(of name: String) -> String? {
        let lower = name.lowercased()
        if distributionNames.contains(lower) || distributionPrefixes.contains(where: lower.hasPrefix) {
            return "'\(lower)' is a package name the distribution uses (a browser or a part of one): a package of "
                + "that name would replace it when installed"
        }
        // `chromium.`, `firefox+`: another package, but one a reader takes for the browser's.
        var base = lower
        while let last = base.last, ".+-".contains(last) { base.removeLast() }
        guard base != lower, distributionNames.contains(base) else { return nil }
        return "'\(lower)' is the browser package name '\(base)' with only punctuation added: it would be taken for "
            + "the browser's own package"
    }

    /// Why a bridge's package may not be called `name`, or nil when it may: the distribution's
    /// (`distributionUse(of:)`), a folder the system shares (`sharedFolderNames`), or ExtensionBridge's own.
    public static func reservedUse(of name: String) -> String? {
        if let reason = distributionUse(of: name) { return reason }
        let lower = name.lowercased()
        if sharedFolderNames.contains(lower) {
            return "'\(lower)' names a folder the system and other packages share (/usr/share/\(lower), "
                + "/usr/lib/\(lower)): a package of that name would install its files among theirs"
        }
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
