/// Which files of a generated project are ExtensionBridge's (its core,
/// replaced by `upgrade`) and which are the app's (never touched).
///
/// Core: every file generation copies from the bundled extension into
/// `extension/` (made the app's own: its key, ids, host name, name, version)
/// except those under `extension/app/`; the libraries the project carries
/// (`ExtensionBridge/`, `CarriedSource`); and the project files ExtensionBridge
/// maintains: `Package.swift`, `scripts/build.sh`, `scripts/install.sh`,
/// `scripts/test.sh`, `scripts/package-deb.sh`, `Safari/README.md`.
///
/// The app's: everything under `extension/app/` (whether or not it exists
/// yet), every file the app added (a locale folder, a script, a page), the
/// Swift it writes its actions, its app and its Safari handler in (`Sources/`,
/// `Tests/`), `bridge.json`, `keys/`, `README.md`, `.gitignore`.
/// A path is core only if generation wrote it there: the rule below says
/// where core files may be, `core.json` which ones are.
///
/// A project made with `new --from-safari` (`core.json`'s `"extension":
/// "safari-import"`): its whole extension is the app's except the files of
/// `extension/bridge-compat/` (`SafariImport.bundledCompat`; the project files
/// and the carried libraries are core as in any project).
public enum ProjectOwnership {
    /// The project files outside `extension/` that ExtensionBridge owns.
    public static let coreProjectFiles: Set<String> = [
        "Package.swift", "scripts/build.sh", "scripts/install.sh", "scripts/test.sh", "scripts/package-deb.sh",
        "Safari/README.md",
    ]
    /// The carried libraries' folder: every file in it is ExtensionBridge's.
    public static let carriedFolder = CarriedSource.folder + "/"
    /// The app's own folder inside the extension.
    public static let appFolder = "extension/app/"
    /// The extension's manifest, whose `version` is the app's.
    public static let manifestPath = "extension/manifest.json"

    /// Whether a generated file at `path` is core (replaced on upgrade).
    /// - Parameter safariImport: a project made with `--from-safari`, whose extension is the app's
    ///   but for `importedCoreFiles`.
    public static func isCore(_ path: String, safariImport: Bool = false) -> Bool {
        if isCarried(path) { return true }
        if safariImport { return coreProjectFiles.contains(path) || importedCoreFiles.contains(path) }
        if path.hasPrefix(appFolder) { return false }
        if path.hasPrefix("extension/") { return true }
        return coreProjectFiles.contains(path)
    }

    /// Whether `path` is in the carried libraries' folder, which is ExtensionBridge's whole: a file
    /// there that a newer ExtensionBridge's libraries no longer have is retired like `retiredCoreFiles`
    /// (its modules gain, lose and rename files between versions).
    public static func isCarried(_ path: String) -> Bool { path.hasPrefix(carriedFolder) }

    /// Core files an earlier ExtensionBridge's templates wrote and this one's no longer do: the
    /// only files `upgrade` removes (when unedited). Upgrade replaces and removes only what a
    /// template owns, whatever `core.json` says: a record can be edited, merged or written by
    /// someone else, and naming the app's own file there must not get it deleted. Add a path here
    /// when a template stops writing it. None yet (the carried folder's files are retired by `isCarried`).
    public static let retiredCoreFiles: Set<String> = []

    /// The core files among `files` (what `new` writes), in their order.
    /// - Parameter safariImport: a project made with `--from-safari`: its extension is the app's
    ///   (the author's files, the adapted manifest, the service-worker entry, the generated pages) except
    ///   ExtensionBridge's files in `extension/bridge-compat/` (`importedCoreFiles`).
    public static func coreFiles(_ files: [GeneratedFile], safariImport: Bool = false) -> [GeneratedFile] {
        guard safariImport else { return files.filter { isCore($0.path) } }
        return files.filter { isCore($0.path, safariImport: true) }
    }

    /// ExtensionBridge's files in an imported extension: the Safari shim, the namespace file, the
    /// generated pages' loader and the service worker's stand-ins.
    public static let importedCoreFiles: Set<String> = Set(
        SafariImport.bundledCompat.map { "extension/" + $0.imported })
}
