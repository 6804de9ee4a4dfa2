import BridgeProtocol
import BridgeSystem
import BrowserSupport
import SharedSuite

/// The bridge `run` starts: its extension, its host and how that is built, its ids
/// and group. ExtensionBridge's own (a checkout) or a project `new` made (its
/// `bridge.json`), imported from Safari or not: the same fields.
public struct RunProject: Equatable, Sendable {
    /// ExtensionBridge's own bridge, or a generated project.
    public enum Kind: Equatable, Sendable { case builtIn, generated }

    public var kind: Kind
    /// What the lines call it.
    public var name: String
    /// The Swift package the host is built in.
    public var folder: String
    public var extensionFolder: String
    /// Chromium's own folder, when the extension has one: a Manifest V2 extension imported with
    /// `new --from-safari` keeps its manifest for Firefox, and Chromium loads the Manifest V3 one
    /// `bridge.json`'s `chromiumManifest` names (beside links to the extension's files).
    public var chromiumFolder: String? = nil
    public var hostName: String
    /// The host executable's product name.
    public var hostProduct: String
    public var group: String
    public var chromiumID: String
    public var firefoxID: String

    /// ExtensionBridge's own bridge, from the checkout at `source` (its ids from the extension's manifest).
    /// - Throws: `InstallError.extensionManifest` when the manifest has no key or gecko id.
    public static func builtIn(source: String) throws(InstallError) -> RunProject {
        let extensionFolder = source + "/extension"
        let identity = try ExtensionIdentity.load(extensionDirectory: extensionFolder)
        return RunProject(
            kind: .builtIn, name: "ExtensionBridge", folder: source, extensionFolder: extensionFolder,
            hostName: HostIdentity.defaultHostName, hostProduct: HostIdentity.defaultHostProduct,
            group: GroupContainer.defaultGroupID, chromiumID: identity.chromiumIDs.first ?? "",
            firefoxID: identity.firefoxIDs.first ?? "")
    }

    /// A project `new` made, from its `bridge.json` at `path` (loaded: folders absolute).
    public static func generated(_ description: BridgeDescription, path: String) -> RunProject {
        RunProject(
            kind: .generated, name: description.name, folder: FileSystem.parentPath(path),
            extensionFolder: description.extensionFolder,
            chromiumFolder: description.chromiumManifest.map(FileSystem.parentPath), hostName: description.hostName,
            hostProduct: description.hostProduct, group: description.group, chromiumID: description.chromiumID,
            firefoxID: description.firefoxID)
    }

    /// The folder `browser` loads the extension from.
    public func extensionFolder(for browser: RunBrowser) -> String {
        browser == .chromium ? chromiumFolder ?? extensionFolder : extensionFolder
    }

    /// The script of the bridge whose build `run` makes: ExtensionBridge's `scripts/install.sh`,
    /// a project's `scripts/build.sh` (what its install.sh and package-deb.sh build through).
    public var buildScript: String { kind == .builtIn ? "scripts/install.sh" : "scripts/build.sh" }

    /// The build `buildScript` makes (`HostBuild`): the program and its arguments,
    /// run in `folder`. `swift` is looked up on `searchPath`.
    public func buildCommand(searchPath: String?) -> (program: String, arguments: [String])? {
        switch kind {
        case .builtIn:
            return (folder + "/" + HostBuild.builtInScript, [hostProduct])
        case .generated:
            guard let swift = Platform.executable(named: "swift", searchPath: searchPath) else { return nil }
            return (swift, HostBuild.projectArguments(product: hostProduct))
        }
    }

    /// The first file `run` would have run or built from that fails `PathTrust` (a folder or file
    /// another user can write), or nil: the build script (ExtensionBridge's), the package manifest
    /// (SwiftPM runs it as a program), and the built host (the browser runs it). Each is what
    /// `install` and `doctor` refuse to run from such a place; `run` holds its builds to the same rule.
    /// - Parameter builtHost: the built host's path, once the build has made it.
    public func untrustedFile(builtHost: String? = nil, userID: UInt32 = Platform.effectiveUserID)
        -> PathTrust.Refusal?
    {
        var paths = [folder + "/Package.swift"]
        if kind == .builtIn { paths.append(folder + "/" + HostBuild.builtInScript) }
        if let builtHost { paths.append(builtHost) }
        for path in paths where Platform.exists(path) {
            if let refusal = PathTrust.refusal(path, userID: userID) { return refusal }
        }
        return nil
    }

    /// The sources a change to which means the host must be built again: every Swift file and
    /// `Package.resolved` of the package, outside the folders that are not the host's (tests,
    /// examples, fuzz targets, the Safari handler, the extension, build products).
    public var hostSources: SourceTree.Rule {
        SourceTree.Rule(
            root: folder, includes: { $0.hasSuffix(".swift") || $0 == "Package.resolved" },
            skippedFolders: [
                ".build", ".swiftpm", ".git", "Tests", "Examples", "Fuzz", "Safari", "extension", "node_modules",
            ])
    }

    /// The extension's files: every one but hidden files, editor backups and its `test/` folder.
    public var extensionSources: SourceTree.Rule {
        SourceTree.Rule(
            root: extensionFolder,
            includes: { !$0.hasSuffix("~") && !$0.hasSuffix(".swp") && !$0.hasSuffix(".swx") },
            skippedFolders: ["test", "node_modules"])
    }
}
