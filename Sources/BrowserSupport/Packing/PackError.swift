import BridgeProtocol
import BridgeSystem

/// Why packing an extension (or loading, making or using its signing key)
/// stopped. Each description names the bad value and says what to do; the
/// exit status is the one `extension-bridge pack` reports.
public enum PackError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The extension folder does not exist or holds no `manifest.json` (exit 66).
    case missingExtension(path: String)
    /// `manifest.json` is not a usable manifest (exit 65).
    case manifest(path: String, reason: String)
    /// A link inside the extension folder: it could point anywhere (exit 65).
    case symbolicLink(path: String)
    /// Something in the extension folder that is neither a regular file nor a folder (exit 65).
    case notRegularFile(path: String)
    /// A file in the extension folder holds a private key: a package must never carry one (exit 65).
    case privateKey(path: String)
    /// A `FILE.orig` in the extension folder: the copy `upgrade --force` kept of an edited file (exit 65).
    case keptCopy(path: String)
    /// A file name a zip entry must not carry (exit 65).
    case unsafeName(name: String, reason: String)
    /// The files to pack add up to more than the limit, or too many of them (exit 65).
    case tooLarge(path: String, limit: Int)
    /// A zip or CRX that cannot be read back (exit 65).
    case corruptArchive(String)
    /// A zip would exceed what a zip without ZIP64 records can hold (exit 65).
    case archiveTooLarge(String)
    /// An `--update-url` that is not a plain https URL (exit 64).
    case invalidUpdateURL(String, reason: String)
    /// The package has no Firefox id, and something needs one (exit 65).
    case noFirefoxID(path: String)
    /// This machine's signing key asked to sign an extension that is not ExtensionBridge's own (exit 65).
    case machineKeyForAnotherExtension(path: String)
    /// The signing key gives another Chromium id than the bridge's `extension.chromiumID` (exit 65).
    case keyForAnotherID(path: String, keyID: String, chromiumID: String)
    /// The key file is not there (exit 66).
    case keyMissing(path: String)
    /// The key file is unsafe to use: a link, not a regular file, readable by others (exit 65).
    case keyUnsafe(path: String, reason: String, fix: String)
    /// The key file does not hold an RSA private key openssl can read (exit 65).
    case keyInvalid(path: String, reason: String)
    /// The key was never saved to a file, so openssl cannot sign with it (exit 70).
    case keyNotSaved
    /// openssl is not installed (exit 69).
    case opensslMissing(purpose: String)
    /// openssl ran and failed (exit 69).
    case opensslFailed(String)
    /// A Debian control value dpkg or lintian would refuse (exit 65).
    case debianControl(String)
    /// A host name or group the package's host manifests or configuration cannot hold (exit 64).
    case registration(InstallError)
    /// Two files of a Debian layout that must be one differ: a fault of this program (exit 70).
    case layout(String)
    /// `dpkg --print-architecture` answered nothing: not a Debian system (exit 69).
    case notDebian
    /// A host that needs shared libraries (the Swift runtime) where a package needs a static one (exit 65).
    case dynamicHost(path: String)
    /// The output folder of a Debian package is one others can write (exit 77).
    case untrustedFolder(String, fix: String?)
    /// A file or folder inside the extension folder, or the signing key (or a folder on its way),
    /// fails `PathTrust`: another user could have chosen what is signed and packed (exit 77).
    case untrustedInput(PathTrust.Refusal)
    /// A build tool (dpkg-deb, strip, md5sum) is not installed (exit 69).
    case toolMissing(name: String, package: String)
    /// A build tool ran and failed (exit 70).
    case toolFailed(String)
    /// Reading or writing a file failed (exit 74).
    case io(SystemError)

    public var description: String {
        switch self {
        case .missingExtension(let path):
            return "no extension at \(path) (no manifest.json there); pass --extension-dir DIR, the folder that "
                + "holds manifest.json"
        case .manifest(let path, let reason):
            return "cannot pack \(path): \(reason); fix the manifest and run pack again"
        case .symbolicLink(let path):
            return "\(path) is a symbolic link; a packed extension holds regular files only (a link can point "
                + "anywhere): replace it with a copy of the file, or move it out of the extension folder"
        case .notRegularFile(let path):
            return "\(path) is neither a regular file nor a folder; move it out of the extension folder"
        case .privateKey(let path):
            return "\(PackError.visible(path)) holds a private key; a package must never carry one (a store upload "
                + "would publish it, and with a signing key the extension's identity): move it out of the extension "
                + "folder (keep a signing key beside it, not in it) and pack again"
        case .keptCopy(let path):
            return "\(PackError.visible(path)) is a kept copy (upgrade --force keeps your edited file as FILE.orig), "
                + "and a package must not ship it: merge what you need into \(PackError.visible(String(path.dropLast(5)))), "
                + "then move the .orig out of the extension folder and pack again"
        case .unsafeName(let name, let reason):
            return
                "the name '\(PackError.visible(name))' cannot go into a package: \(reason); rename it (ASCII letters, digits, spaces "
                + "and ._-@+~()[],!$&=; only, '/' between folders)"
        case .tooLarge(let path, let limit):
            return "\(path): the extension's files add up to more than \(limit / (1 << 20)) MiB (or more than "
                + "\(PackLimits.entries) files); leave big files out of the extension folder"
        case .corruptArchive(let reason):
            return "not a package this tool can read: \(reason); pack it again with extension-bridge pack"
        case .archiveTooLarge(let what):
            return "the package is too large for a zip without ZIP64 (\(what)); make the extension smaller"
        case .invalidUpdateURL(let url, let reason):
            return
                "invalid --update-url '\(PackError.visible(url))': \(reason); give the https URL of the folder that will serve "
                + "the packages, for example https://example.com/extension"
        case .noFirefoxID(let path):
            return "\(path) has no browser_specific_settings.gecko.id; add one (for example "
                + "\"name@example.com\"): Firefox's updates.json is keyed by it"
        case .machineKeyForAnotherExtension(let path):
            return "\(PackError.visible(path)) is not ExtensionBridge's own extension, and this machine's signing key "
                + "signs only that one (the built-in host trusts its id once install --crx used it); sign this "
                + "extension with a key of its own: openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 "
                + "-out KEY.pem && chmod 600 KEY.pem, kept outside the extension folder, then pass --key KEY.pem"
        case .keyForAnotherID(let path, let keyID, let chromiumID):
            // The CRX and updates.xml carry the signer's id; the host manifests allow the bridge's.
            return "the signing key \(PackError.visible(path)) gives the Chromium id \(keyID), but bridge.json's "
                + "extension.chromiumID is \(chromiumID): the CRX would carry \(keyID), which the host refuses; put "
                + "the key of \(chromiumID) (the private half of the manifest's \"key\") there, or pass --key naming it"
        case .keyMissing(let path):
            // Another key would sign the extension under another id, so the only fix is the same key.
            return "no signing key at \(path); every version must be signed with the key that signed the first "
                + "(the extension's id comes from it): copy that key here and chmod 600 it (a project's key comes "
                + "from whoever made the project: a clone has no keys/), or pass --key PEM naming it"
        case .keyUnsafe(let path, let reason, let fix):
            return "refusing the signing key \(path): \(reason); \(fix)"
        case .keyInvalid(let path, let reason):
            return "the signing key \(path) is not usable: \(reason); give an unencrypted RSA private key in PEM "
                + "(openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out KEY.pem)"
        case .keyNotSaved:
            return "the signing key has no file (openssl signs from one); save it with ExtensionKey.loadOrCreate(at:)"
        case .opensslMissing(let purpose):
            return "openssl is needed to \(purpose) and was not found on PATH; install it "
                + "(sudo apt-get install openssl) and run the command again"
        case .opensslFailed(let text):
            return text
        case .debianControl(let reason):
            return "cannot build the Debian package: \(reason)"
        case .registration(let error):
            return error.description
        case .layout(let text):
            return text
        case .notDebian:
            return "dpkg --print-architecture failed; is this a Debian system?"
        case .dynamicHost(let path):
            return "the host \(path) needs shared libraries (the Swift runtime) that other machines lack; build it "
                + "static: swift build -c release -Xswiftc -static-executable (a project made by extension-bridge new: "
                + "its scripts/package-deb.sh builds it so and packs it)"
        case .untrustedFolder(let why, let fix):
            return "refusing to build the Debian package there: \(PackError.visible(why)), so another user could swap "
                + "its files while it is built (it is installed as root); "
                + (fix.map { "run \($0), or " } ?? "") + "choose another --out"
        case .untrustedInput(let refusal):
            return "refusing \(PackError.visible(refusal.description)), so another user could have chosen what is "
                + "signed and packaged; " + (refusal.fix.map { "run \($0), or " } ?? "")
                + "move it into a folder of your own"
        case .toolMissing(let name, let package):
            return "\(name) is needed to build the Debian package and was not found; install it "
                + "(sudo apt-get install \(package)) and run the command again"
        case .toolFailed(let text):
            return text
        case .io(let error):
            return error.description
        }
    }

    /// The sysexits status: 64 usage, 65 data, 66 missing, 69 unavailable, 70 software, 74 I/O.
    public var exitStatus: Int32 {
        switch self {
        case .invalidUpdateURL, .registration: return 64
        case .manifest, .symbolicLink, .notRegularFile, .privateKey, .keptCopy, .unsafeName, .tooLarge,
            .archiveTooLarge,
            .corruptArchive,
            .noFirefoxID, .machineKeyForAnotherExtension, .keyForAnotherID, .keyUnsafe, .keyInvalid, .debianControl,
            .dynamicHost:
            return 65
        case .missingExtension, .keyMissing: return 66
        case .opensslMissing, .opensslFailed, .toolMissing, .notDebian: return 69
        case .keyNotSaved, .toolFailed, .layout: return 70
        case .io: return 74
        case .untrustedFolder, .untrustedInput: return 77
        }
    }

    /// `text` with controls, line and paragraph separators and bidi controls written as `\u{…}`
    /// (`HostConfiguration.isUnsafe`): a value typed or named by someone else cannot start a line of
    /// its own in a message, or reorder it (the CLI keeps line breaks on stderr).
    static func visible(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if HostConfiguration.isUnsafe(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
