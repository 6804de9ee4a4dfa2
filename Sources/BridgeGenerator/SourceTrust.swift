import BridgeSystem
import BrowserSupport

/// Whether `new` may take an ExtensionBridge source it found by itself (the
/// installed copy, the checkout its binary was built in) rather than one it
/// was given: the project copies its extension and carries its libraries
/// (`Sources/`, built into the app's host), so a folder another user could
/// have planted (in `/tmp`, say) must not be used. The folder's whole path is
/// held to `PathTrust`'s rule, the rule `doctor` applies before it runs a program.
public enum SourceTrust {
    /// What `new` reads of a source: the folder, its manifest, the extension folder and its manifest.
    static let checkedPaths = ["", "/Package.swift", "/extension", "/extension/manifest.json", "/Sources"]

    /// Why `folder` is not to be trusted, or nil when it is: every folder on
    /// the way to it (`PathTrust`), each checked path (the link itself and
    /// what it names), and everything under `extension/` and `Sources/` that
    /// `new` copies, must belong to `userID` or root and be writable by its
    /// owner alone.
    public static func refusal(_ folder: String, userID: UInt32 = Platform.effectiveUserID) -> String? {
        if folder.hasPrefix("/"), let refusal = PathTrust.refusal(folder, userID: userID) {
            return refusal.description
        }
        var paths = checkedPaths.map { folder + $0 }
        // The extension's tree and the libraries' (Sources/: CarriedSource takes its modules from
        // there), as ProjectWriter.readTree walks them (links are not followed there).
        var pending = [folder + "/extension", folder + "/Sources"]
        while let next = pending.popLast(), paths.count < 10_000 {
            for name in ((try? FileSystem.listDirectory(next)) ?? []).sorted() where name != "node_modules" {
                let path = next + "/" + name
                paths.append(path)
                if (try? FileSystem.status(path))?.isDirectory == true { pending.append(path) }
            }
        }
        for path in paths {
            for followLinks in [false, true] {
                guard let info = try? FileSystem.status(path, followLinks: followLinks) else {
                    return "\(path) cannot be examined"
                }
                if let refusal = PathTrust.refusal(of: info, at: path, userID: userID) { return refusal.description }
            }
        }
        return nil
    }
}
