import BridgeProtocol
import BridgeSystem

/// Errors of install, uninstall and doctor, each saying what to do.
public enum InstallError: Error, Equatable, Sendable, CustomStringConvertible {
    case extensionManifest(path: String, reason: String)
    case invalidHostName(String)
    case unknownBrowser(String)
    case noBrowserDetected
    case hostMissing(path: String)
    case firefoxWithProfile
    /// `--crx` with `--system`: a CRX goes to a user's browsers; the package installs system-wide.
    case packedWithSystem
    case bridgeConfig(path: String, reason: String)
    /// A project file install or pack relies on (bridge.json, the extension folder, `keys/`) fails `PathTrust`.
    case untrustedProject(PathTrust.Refusal)
    /// The receipt, or the folder install keeps it in, fails `PathTrust`: another user could choose
    /// which files uninstall removes.
    case untrustedReceipt(PathTrust.Refusal)
    /// A folder install writes into (or one on its way) fails `PathTrust`: another user could choose
    /// where a file of ours lands.
    case untrustedDestination(PathTrust.Refusal)
    /// An `--extension-id` (or a manifest's Firefox id) that is neither a Chromium id nor a Firefox add-on id.
    case invalidExtensionID(String)
    /// A `--suite` group id the suite, the host and `secret-tool` could not all take as it is.
    case invalidGroupID(String)
    /// A value the host's configuration file cannot hold (a line break would add an `allow`).
    case unsafeConfiguration(HostConfiguration.UnsafeValue)
    /// A file the Debian package owns, which install would have to change.
    case packageOwned(path: String)
    /// An existing file of another user's, which install would have to change.
    case notOurs(path: String, owner: UInt32)
    /// A host manifest of another program is where install would write (a host name that is theirs).
    case otherProgramsManifest(path: String, description: String?)
    /// A link where install would write a host manifest, to a file that is not one of ours (or to nothing).
    case linkedManifest(path: String, target: String?)
    /// A path that is not absolute and plain: a receipt must name each file the same wherever it is read.
    case relativePath(String)
    /// Another install or uninstall of this user's held the receipts' lock past the timeout.
    case busy(folder: String)
    case io(SystemError)

    public var description: String {
        switch self {
        case .extensionManifest(let path, let reason):
            return "cannot read the extension's manifest \(path): \(reason); pass --extension-dir DIR (the folder "
                + "with manifest.json)"
        case .invalidHostName(let name):
            return "invalid host name '\(name)': use lowercase letters, digits, '_' and single dots between them "
                + "(for example org.extensionbridge.host)"
        case .unknownBrowser(let name):
            return
                "unknown browser '\(name)'; known: \(BrowserCatalog.all.map(\.id).joined(separator: ", ")), all, detected"
        case .noBrowserDetected:
            return "no browser found (no executable on PATH or in the vendors' folders, no profile folder, no "
                + "Flatpak), so nothing was installed; install a browser, then run `extension-bridge install --crx` "
                + "(the host, and the extension for Chromium, Edge, Brave and Vivaldi), or name one now: "
                + "`extension-bridge install --crx --browser chromium`"
        case .hostMissing(let path):
            return "no executable host at \(path); build and install it with scripts/install.sh, or pass --host-path"
        case .firefoxWithProfile:
            return "--user-data-dir is for Chromium-family browsers; Firefox reads only "
                + "~/.mozilla/native-messaging-hosts (set HOME to use another)"
        case .packedWithSystem:
            return "--crx installs the extension for this user's browsers; for every user, install the Debian "
                + "package (scripts/package-deb.sh), which puts it in the browsers' system folders"
        case .bridgeConfig(let path, let reason):
            return "cannot use the bridge description \(path): \(reason) (extension-bridge new writes it)"
        case .untrustedProject(let refusal):
            return "refusing the project: \(refusal), so another user could have chosen which extensions the host "
                + "serves, which group they reach, or what is signed; "
                + (refusal.fix.map { "run \($0), or " } ?? "") + "move the project into a folder of your own"
        case .untrustedReceipt(let refusal):
            return "refusing the install receipt: \(refusal), so another user could choose which files "
                + "uninstall removes; nothing was changed; " + (refusal.fix.map { "run \($0), or " } ?? "")
                + "set XDG_DATA_HOME to a folder of your own"
        case .untrustedDestination(let refusal):
            return "refusing a folder install writes into: \(refusal), so another user could choose where install's "
                + "files land; nothing was changed; " + (refusal.fix.map { "run \($0), or " } ?? "")
                + "give a folder of your own"
        case .invalidExtensionID(let id):
            return "invalid extension id '\(HostConfiguration.UnsafeValue.shown(id))': a Chromium id (32 letters a–p, "
                + "or chrome-extension://ID/) or a Firefox add-on id (name@domain or {GUID})"
        case .invalidGroupID(let id):
            return "invalid group id '\(HostConfiguration.UnsafeValue.shown(id))': use letters, digits, '.', '-' and "
                + "'_', not starting with '.' or '-'"
        case .unsafeConfiguration(let error):
            return error.description
        case .packageOwned(let path):
            return "\(path) belongs to the extension-bridge package (dpkg -S \(path)); install would change it, and "
                + "dpkg puts it back at the next upgrade without a word (it is no conffile). Nothing was written. "
                + "Change the system install through the package (rebuild it: scripts/package-deb.sh --extension-id "
                + "ID, then sudo apt install ./extension-bridge_*.deb; the package has no debconf, so dpkg-reconfigure "
                + "changes nothing), or install for yourself "
                + "without --system and without --host-path, with a host of your own"
        case .notOurs(let path, let owner):
            return "\(path) belongs to another user (uid \(owner)), and install would change it; nothing was "
                + "written. Install with a host of your own (without --host-path, or one in a folder you own)"
        case .otherProgramsManifest(let path, let description):
            return "\(path) is another program's host manifest ("
                + (description.map { "\"\(HostConfiguration.UnsafeValue.shown($0))\"" }
                    ?? "not one of ExtensionBridge's")
                + "): the host name is theirs; nothing was written. Choose a host name of your own"
        case .linkedManifest(let path, let target):
            return "\(path) is a link to "
                + (target.map { "\(HostConfiguration.UnsafeValue.shown($0)), which is not a host manifest of ours" }
                    ?? "nothing") + ", and install does not write through links; nothing was written. If nothing of "
                + "yours needs it, remove the link (rm \(path.shellQuoted)) and install again"
        case .relativePath(let path):
            return "'\(HostConfiguration.UnsafeValue.shown(path))' is not an absolute path; install records where "
                + "it writes, and uninstall must find the same file from any folder: give the folder as /…"
        case .busy(let folder):
            return "another install or uninstall is running (it holds the lock on \(folder)); wait for it to "
                + "finish and run this again"
        case .io(let error):
            return error.description
        }
    }
}
