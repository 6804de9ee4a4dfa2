import BridgeJSON
import BridgeSystem
import BrowserSupport

/// A Safari Web Extension's resources folder (`new --from-safari DIR`: the
/// folder Xcode's template calls Resources), imported as a generated
/// project's extension so that its JavaScript runs unchanged in Chromium and
/// Firefox.
///
/// The author's files are copied byte for byte; ExtensionBridge's are added
/// beside them (`bridge-compat/`, and `bridge-compat-…` files where a URL must
/// resolve as the author's did), and only `manifest.json` is rewritten
/// (`SafariAdaptation`). Reading refuses links that leave the folder, files
/// that are not regular, names with control characters or backslashes, files
/// holding a private key, files over `fileLimit` and trees over `countLimit`
/// or `depthLimit`: every refusal is named, and nothing is written.
public struct SafariImport: Equatable, Sendable {
    /// The author's files, relative to the folder, as read.
    public var files: [GeneratedFile]

    public init(files: [GeneratedFile]) { self.files = files }

    /// Largest file imported (an extension's largest is an image or a bundled script).
    public static let fileLimit = 16 << 20
    /// At most this many files, and this much in all.
    public static let countLimit = 10_000
    public static let totalLimit = 256 << 20
    /// How deep folders may nest.
    public static let depthLimit = 32

    /// ExtensionBridge's files inside the imported extension; a name of the author's starting with
    /// it is refused (the generated `bridge-compat-…` files beside theirs could collide).
    public static let compatFolder = "bridge-compat"
    /// The Safari shim, loaded before the author's background and in their pages (core: `upgrade` replaces it).
    public static let shimPath = "bridge-compat/safari-shim.js"
    /// `browser` as `chrome` in content scripts, for Chromium-family browsers without it (core).
    public static let namespacePath = "bridge-compat/browser-namespace.js"
    /// The page loader of the generated pages (core).
    public static let pageLoaderPath = "bridge-compat/page.js"
    /// What a service worker can stand in for of a page's globals (core).
    public static let workerGlobalsPath = "bridge-compat/worker-globals.js"
    /// Chromium's service worker, in the folder the background's URLs are relative to (the app's: it
    /// lists the background's scripts).
    public static let entryName = "bridge-compat-service-worker.js"
    /// A Manifest V2 extension's Chromium folder in the project: its own `manifest.json` (Manifest V3),
    /// everything else a link into `extension/`.
    public static let chromiumFolder = "extension-chromium"
    /// The bundled extension's core files for an import (`extension/compat/`, never shipped itself) and
    /// where each goes.
    static let bundledCompat: [(bundled: String, imported: String)] = [
        ("compat/safari-shim.js", shimPath), ("compat/browser-namespace.js", namespacePath),
        ("compat/page.js", pageLoaderPath), ("compat/worker-globals.js", workerGlobalsPath),
    ]
    /// Whether a file of the bundled extension is for imports only: `compat/` and its node tests.
    static func isCompat(_ path: String) -> Bool {
        path.hasPrefix("compat/")
            || ["test/safari-shim.test.js", "test/page.test.js", "test/worker-globals.test.js"].contains(path)
    }
    /// The host name the bundled shim is written with; the generator writes the bridge's instead.
    static let bundledHostLine = "const HOST_NAME = 'org.extensionbridge.host';"

    // MARK: Reading the folder

    /// Reads `folder`: every regular file, links only when they resolve to a
    /// regular file inside the folder.
    /// - Throws: `GeneratorError.invalid` (65) listing everything refused;
    ///   `.missing` (66) when the folder or its `manifest.json` is missing.
    public static func read(_ folder: String) throws(GeneratorError) -> SafariImport {
        guard let root = FileSystem.resolvedPath(folder),
            (try? FileSystem.status(root, followLinks: true))??.isDirectory == true
        else { throw .missing("--from-safari \(DisplayText.escaped(folder)): no such folder") }
        var walk = FolderWalk(root: root)
        walk.walk("", depth: 0)
        guard walk.refused.isEmpty else {
            throw .invalid(
                "refusing to import \(DisplayText.escaped(folder)); nothing was written. Refused:\n  "
                    + walk.refused.joined(separator: "\n  "))
        }
        guard walk.files.contains(where: { $0.path == "manifest.json" }) else {
            throw .missing(
                "\(DisplayText.escaped(folder)) has no manifest.json: point --from-safari at the extension's "
                    + "resources folder (Xcode's \"Resources\", beside the extension's SafariWebExtensionHandler)")
        }
        return SafariImport(files: walk.files)
    }

    /// `spec` as the imported extension answers it: the version is the manifest's, as written (the
    /// packages, the host and the manifest then say the same), and the features are none: they are
    /// the bundled extension's (its content scripts, menus and popup), which an import does not carry.
    func projectSpec(_ spec: ProjectSpec) -> ProjectSpec {
        var out = spec
        out.features = []
        if let manifest = files.first(where: { $0.path == "manifest.json" }),
            let version = (try? SafariManifest.parse(manifest.bytes))?.object["version"]?.stringValue
        {
            var candidate = out
            candidate.version = version
            // A version browsers refuse stays the default: the import's own check names it.
            if (try? candidate.validate()) != nil { out = candidate }
        }
        return out
    }

    /// Why `pack` would refuse `path` in the extension (`ZipArchive.check`, the rule a name must pass to
    /// go into a package), or nil. What pack leaves out (a dotfile, a name of `excludedAtTop` at the
    /// top) it never checks, and neither does this: refused here, the author renames the file before
    /// any code refers to it, not at release time.
    static func packRefusal(of path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.contains(where: { $0.hasPrefix(".") }) { return nil }
        if let top = parts.first, ExtensionPackage.excludedAtTop.contains(String(top)) { return nil }
        do {
            try ZipArchive.check(path)
            return nil
        } catch {
            guard case .unsafeName(_, let reason) = error else { return error.description }
            return "pack would refuse this name (\(reason)): rename it to ASCII letters, digits, spaces and "
                + "._-@+~()[],!$&=; only"
        }
    }

    /// One reading of the folder: what it holds, and what it refused.
    private struct FolderWalk {
        let root: String
        var files: [GeneratedFile] = []
        var refused: [String] = []
        var total = 0

        mutating func refuse(_ path: String, _ why: String) { refused.append("\(DisplayText.escaped(path)): \(why)") }

        mutating func walk(_ relative: String, depth: Int) {
            guard depth <= depthLimit else { return refuse(relative, "folders nest deeper than \(depthLimit)") }
            let absolute = relative.isEmpty ? root : root + "/" + relative
            let names: [String]
            do {
                names = try FileSystem.listDirectory(absolute).sorted()
            } catch {
                return refuse(relative, "cannot list it: \(error)")
            }
            for name in names {
                let path = relative.isEmpty ? name : relative + "/" + name
                guard files.count + refused.count < countLimit else {
                    return refuse(path, "more than \(countLimit) files")
                }
                guard ProjectPath.isPlainRelative(path), !name.contains("\\") else {
                    refuse(path, "a name with a control character or backslash could not be written safely everywhere")
                    continue
                }
                if let reason = SafariImport.packRefusal(of: path) {
                    refuse(path, reason)
                    continue
                }
                if name.hasPrefix(compatFolder) {
                    refuse(
                        path,
                        "names starting with \(compatFolder) are ExtensionBridge's in the imported extension; rename yours"
                    )
                    continue
                }
                guard let (info, kind) = kind(of: path) else { continue }
                if kind.isDirectory {
                    walk(path, depth: depth + 1)
                } else if !kind.isRegular {
                    refuse(path, "not a regular file (a pipe, socket or device)")
                } else if !add(path, followLink: info.isSymbolicLink) {
                    return
                }
            }
        }

        /// The entry's own status and what it is once a link inside the folder is followed; nil
        /// (refused) for a link leading outside or to something other than a regular file.
        mutating func kind(of path: String) -> (FileStatus, FileStatus)? {
            let full = root + "/" + path
            guard let info = try? FileSystem.status(full) else {
                refuse(path, "vanished or unreadable")
                return nil
            }
            guard info.isSymbolicLink else { return (info, info) }
            let target = FileSystem.resolvedPath(full)
            guard let target, target.hasPrefix(root + "/") else {
                let shown = DisplayText.escaped(FileSystem.readLink(full) ?? "?")
                refuse(
                    path,
                    target == root
                        ? "a link back to the imported folder itself (\(shown))"
                        : "a link that leads outside the folder (\(shown))")
                return nil
            }
            guard let followed = try? FileSystem.status(target), followed.isRegular else {
                refuse(path, "a link to something other than a regular file")
                return nil
            }
            return (info, followed)
        }

        /// Reads one file; false when the folder is over its total.
        mutating func add(_ path: String, followLink: Bool) -> Bool {
            do {
                let bytes = try FileSystem.readFile(root + "/" + path, noFollow: !followLink, limit: fileLimit + 1)
                guard bytes.count <= fileLimit else {
                    refuse(path, "larger than \(fileLimit >> 20) MiB")
                    return true
                }
                total += bytes.count
                guard total <= totalLimit else {
                    refuse(path, "the folder holds more than \(totalLimit >> 20) MiB")
                    return false
                }
                // The folder becomes the project's extension, which is loaded unpacked and packed
                // for release: a private key in it would be published.
                if PrivateKeyScan.holdsPrivateKey(bytes) {
                    refuse(path, "it holds a private key; keep keys out of the extension's folder")
                    return true
                }
                files.append(GeneratedFile(path, bytes))
            } catch {
                refuse(path, "cannot read it: \(error)")
            }
            return true
        }
    }

    // MARK: ExtensionBridge's files

    /// The core files with the bridge's host name.
    static func compatFiles(hostName: String, bundled: [GeneratedFile]) throws(GeneratorError) -> [GeneratedFile] {
        var out: [GeneratedFile] = []
        for (source, target) in bundledCompat {
            guard let file = bundled.first(where: { $0.path == source }) else {
                throw .missing(
                    "the bundled extension has no \(source) (an older ExtensionBridge?); point --package-path at "
                        + "an ExtensionBridge checkout of this version")
            }
            out.append(GeneratedFile(target, file.bytes))
        }
        let text = String(decoding: out[0].bytes, as: UTF8.self)
        guard text.contains(bundledHostLine) else {
            throw .missing("the bundled \(bundledCompat[0].bundled) has no host-name line to fill in")
        }
        out[0] = GeneratedFile(
            shimPath,
            text: text.replacingAll(bundledHostLine, with: "const HOST_NAME = " + javaScriptString(hostName) + ";"))
        return out
    }

    /// `path` with every byte outside the URL's unreserved characters and `/` percent-encoded.
    static func urlPath(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            let isPlain =
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "~") || byte == UInt8(ascii: "/")
            if isPlain {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return out
    }

    /// A JavaScript string literal: JSON's, with every non-ASCII scalar escaped too (so U+2028 and
    /// U+2029 are never raw, whatever the engine's age).
    static func javaScriptString(_ text: String) -> String {
        var out = "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out + "\""
    }

    /// An HTML attribute value in double quotes: `&`, `"`, `<` and `>` as entities.
    static func htmlAttribute(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}
