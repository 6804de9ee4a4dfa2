import BridgeGenerator
import BridgeProtocol
import BridgeSystem
import BrowserSupport

/// Where `new` and `upgrade` find the ExtensionBridge they write a project
/// for: its bundled extension, its templates' version, the folder the
/// project's `Package.swift` names.
enum SourceLocation {
    /// `packagePath` (the verb's `--package-path`), `EXTENSION_BRIDGE_SOURCE`, the installed copy
    /// (`<prefix>/share/extension-bridge/source`), or the checkout this binary
    /// was built in. The two found by walking from the binary are used only
    /// when `SourceTrust` trusts them: one another user could have planted or
    /// changed is refused (exit 77), never skipped for the next.
    static func locate(given packagePath: String?, context: CLIContext, absolute: (String) -> String) throws(CLIError)
        -> String
    {
        var candidates: [String] = []
        // `packagePath`: the value of the calling verb's own `--package-path` (NewVerbOptions, UpgradeVerbOptions).
        if let given = packagePath { candidates = [absolute(given)] }
        if let given = context.environment[EnvironmentVariable.source], candidates.isEmpty {
            candidates = [absolute(given)]
        }
        let explicit = !candidates.isEmpty
        if candidates.isEmpty, let exe = Platform.executablePath() {
            let bin = FileSystem.parentPath(exe)
            candidates.append(FileSystem.parentPath(bin) + "/share/extension-bridge/source")
            var folder = bin
            while folder != "/" && !folder.isEmpty {
                candidates.append(folder)
                folder = FileSystem.parentPath(folder)
            }
        }
        for folder in candidates where isExtensionBridgeSource(folder) {
            if !explicit, let reason = SourceTrust.refusal(folder) {
                throw CLIError(
                    .noPermission,
                    "refusing the ExtensionBridge source found at \(folder): \(reason), so someone else could have "
                        + "put or changed it, and the project would build and ship their code; pass --package-path "
                        + "to a checkout you trust (or remove the write access: chmod go-w)")
            }
            return folder
        }
        // The Debian package ships the programs, not the sources a project is made from: say so, and
        // name the one way forward that needs no address the project does not have.
        throw CLIError(
            .missing,
            "no ExtensionBridge source found (looked in \(candidates.prefix(3).joined(separator: ", "))): new and "
                + "upgrade copy ExtensionBridge's libraries and extension from its source tree, which the Debian "
                + "package does not include; pass --package-path DIR (or set EXTENSION_BRIDGE_SOURCE) to a copy of "
                + "that tree, the folder with its Package.swift and extension/ (scripts/install.sh run from it "
                + "keeps one where new finds it by itself)")
    }

    static func isExtensionBridgeSource(_ folder: String) -> Bool {
        guard let manifest = try? FileSystem.readFile(folder + "/Package.swift", limit: 1 << 20),
            String(decoding: manifest, as: UTF8.self).contains("name: \"ExtensionBridge\"")
        else { return false }
        return (try? FileSystem.status(folder + "/extension/manifest.json")) != nil
    }

    /// The version of the source in `folder`: its `BridgeVersion.current`
    /// (`Sources/BridgeProtocol/BridgeVersion.swift`); this tool's own when
    /// the source does not say (a copy without it).
    static func version(of folder: String) -> String {
        guard
            let bytes = try? FileSystem.readFile(folder + "/Sources/BridgeProtocol/BridgeVersion.swift", limit: 1 << 16)
        else { return BridgeVersion.current }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        where line.contains("static let current = \"") {
            let parts = line.split(separator: "\"", omittingEmptySubsequences: false)
            if parts.count >= 3, SemanticVersion(String(parts[1])) != nil { return String(parts[1]) }
        }
        return BridgeVersion.current
    }
}
