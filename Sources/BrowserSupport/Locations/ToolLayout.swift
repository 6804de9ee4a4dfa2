import BridgeProtocol
import BridgeSystem

/// Where ExtensionBridge's own files lie relative to the running CLI, so `install`, `pack` and
/// `doctor` find the same host and extension whichever way the tool was installed:
/// `scripts/install.sh` puts the host beside the CLI in `<prefix>/bin` and the extension in
/// `<prefix>/share/extension-bridge/extension`; the Debian package puts the host in
/// `/usr/lib/extension-bridge/`; a checkout has `./extension`.
public enum ToolLayout {
    /// Where the host is looked for without `--host-path`, in order: beside the CLI (`executable`),
    /// then `../lib/extension-bridge/` (the Debian package's layout).
    public static func hostCandidates(executable: String) -> [String] {
        let bin = FileSystem.parentPath(executable)
        return [
            bin + "/" + HostIdentity.defaultHostProduct,
            FileSystem.parentPath(bin) + "/lib/extension-bridge/" + HostIdentity.defaultHostProduct,
        ]
    }

    /// The first of `hostCandidates` that is executable under `root` (a `--destdir` staging folder,
    /// else empty), as the path without `root`; nil when none is, or the CLI's path is unknown.
    public static func installedHost(executable: String?, root: String = "") -> String? {
        executable.map(hostCandidates)?.first { FileSystem.isExecutable(root + $0) }
    }

    /// Where the built-in bridge's extension folder is looked for without `--extension-dir`, in
    /// order: the installed copy beside the CLI's `bin/`, then `extension` in the current folder.
    public static func extensionFolderCandidates(executable: String?) -> [String] {
        var candidates: [String] = []
        if let executable {
            candidates.append(
                FileSystem.parentPath(FileSystem.parentPath(executable)) + "/share/extension-bridge/extension")
        }
        candidates.append("extension")
        return candidates
    }

    /// The first of `candidates` holding a `manifest.json`; nil when none does.
    public static func firstExtensionFolder(_ candidates: [String]) -> String? {
        candidates.first { (try? FileSystem.status($0 + "/manifest.json", followLinks: true)) != nil }
    }

    /// `cd 'PROJECT' && scripts/NAME` when the project of `config` (a bridge.json) has that
    /// executable script (`new` writes install.sh and package-deb.sh, which build the host first);
    /// nil otherwise.
    public static func projectScript(_ name: String, besides config: String) -> String? {
        let project = FileSystem.parentPath(config)
        guard FileSystem.isExecutable(project + "/scripts/" + name) else { return nil }
        return "cd \(project.shellQuoted) && scripts/\(name)"
    }

    /// The extension folder of the checkout a CLI was built in (`<checkout>/.build/…/extension-bridge`
    /// → `<checkout>/extension`), when it holds a manifest: what a tool built but not installed, run
    /// outside its checkout, can be pointed at with `--extension-dir`. Nil otherwise.
    public static func checkoutExtensionFolder(executable: String?) -> String? {
        guard let executable else { return nil }
        let parts = executable.split(separator: "/", omittingEmptySubsequences: false)
        guard let build = parts.firstIndex(of: ".build"), build > 0 else { return nil }
        return firstExtensionFolder([parts[..<build].joined(separator: "/") + "/extension"])
    }
}
