/// How an extension came into a profile, from the browser's own record.
public enum InstallRoute: Equatable, Sendable {
    /// Chromium's `ManifestLocation` number.
    case chromium(location: Int)
    /// Chromium's `location` 8 (`--load-extension`) from Debian's system folder or the
    /// package's copy it links to: `/usr/bin/chromium` loads each folder there.
    case chromiumSystemFolder
    /// Firefox's install location name (`app-profile`, `app-system-share`, …).
    case firefox(location: String)

    /// Words for the doctor's table: "installed from …".
    public var description: String {
        switch self {
        case .chromiumSystemFolder: return "installed from the system folder (/usr/share/chromium/extensions)"
        case .chromium(let location):
            switch location {
            case 1: return "installed by you (a CRX or a store)"
            case 2: return "installed from an External Extensions file"
            case 4: return "loaded unpacked (Developer mode)"
            case 5, 10: return "installed as a browser component"
            case 6: return "installed from an External Extensions file (downloaded)"
            case 7: return "installed by policy (downloaded)"
            case 8:
                return "loaded with --load-extension"
            case 9: return "installed by policy"
            default: return "installed (Chromium location \(location))"
            }
        case .firefox(let location):
            switch location {
            case "app-system-share": return "installed from the system folder (/usr/share/mozilla/extensions)"
            case "app-system-local": return "installed from /usr/local/lib/mozilla/extensions"
            case "app-system-user": return "installed from ~/.mozilla/extensions"
            case "app-profile":
                return "installed in the profile (an add-on file, signed unless Firefox allows unsigned ones)"
            case "app-temporary": return "loaded as a temporary add-on (gone when Firefox restarts)"
            case "app-system-defaults", "app-builtin", "app-builtin-addons": return "built into Firefox"
            default: return "installed (Firefox location \(location))"
            }
        }
    }
}
