import BridgeJSON
import BridgeSystem
import BrowserSupport

/// A Safari Web Extension's resources folder (`new --from-safari DIR`: the
/// folder Xcode's template calls Resources), imported as a generated
/// project's extension so that its JavaScript runs unchanged in Chromium and
/// Firefox.
///
/// The author's files are copied byte for byte; only `manifest.json` is
/// rewritten (a service-worker entry, `persistent` dropped, a gecko id, the
/// generated key, `nativeMessaging`, the `browser` namespace before content
/// scripts; everything else of theirs kept), and ExtensionBridge's files are
/// added beside them in `bridge-compat/`. Reading refuses links that leave
/// the folder, files that are not regular, names with control characters or
/// backslashes, files holding a private key, files over `fileLimit` and trees over `countLimit` or
/// `depthLimit`: every refusal is named, and nothing is written.
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

    /// ExtensionBridge's files inside the imported extension.
    public static let compatFolder = "bridge-compat"
    /// The Safari shim, loaded before the author's background (core: `upgrade` replaces it).
    public static let shimPath = "bridge-compat/safari-shim.js"
    /// `browser` as `chrome` in Chromium's content scripts (core).
    public static let namespacePath = "bridge-compat/browser-namespace.js"
    /// Chromium's service worker: the shim, then the author's background scripts (the app's: it lists them).
    public static let entryPath = "bridge-compat/service-worker.js"
    /// Where the bundled extension keeps the two core files (`extension/compat/`, never shipped itself).
    static let bundledShim = "compat/safari-shim.js"
    static let bundledNamespace = "compat/browser-namespace.js"
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
        var files: [GeneratedFile] = []
        var refused: [String] = []
        var total = 0
        func refuse(_ path: String, _ why: String) { refused.append("\(DisplayText.escaped(path)): \(why)") }
        func walk(_ relative: String, depth: Int) {
            guard depth <= depthLimit else {
                refuse(relative, "folders nest deeper than \(depthLimit)")
                return
            }
            let absolute = relative.isEmpty ? root : root + "/" + relative
            let names: [String]
            do {
                names = try FileSystem.listDirectory(absolute).sorted()
            } catch {
                refuse(relative, "cannot list it: \(error)")
                return
            }
            for name in names {
                let path = relative.isEmpty ? name : relative + "/" + name
                guard files.count + refused.count < countLimit else {
                    refuse(path, "more than \(countLimit) files")
                    return
                }
                guard ProjectPath.isPlainRelative(path), !name.contains("\\") else {
                    refuse(path, "a name with a control character or backslash could not be written safely everywhere")
                    continue
                }
                if relative.isEmpty && name == compatFolder {
                    refuse(path, "the name of ExtensionBridge's own folder in the imported extension; rename yours")
                    continue
                }
                let full = root + "/" + path
                guard let info = try? FileSystem.status(full) else {
                    refuse(path, "vanished or unreadable")
                    continue
                }
                var kind = info
                if info.isSymbolicLink {
                    let target = FileSystem.resolvedPath(full)
                    guard let target, target.hasPrefix(root + "/") else {
                        let shown = DisplayText.escaped(FileSystem.readLink(full) ?? "?")
                        refuse(
                            path,
                            target == root
                                ? "a link back to the imported folder itself (\(shown))"
                                : "a link that leads outside the folder (\(shown))")
                        continue
                    }
                    guard let followed = try? FileSystem.status(target), followed.isRegular else {
                        refuse(path, "a link to something other than a regular file")
                        continue
                    }
                    kind = followed
                }
                if kind.isDirectory {
                    walk(path, depth: depth + 1)
                    continue
                }
                guard kind.isRegular else {
                    refuse(path, "not a regular file (a pipe, socket or device)")
                    continue
                }
                do {
                    let bytes = try FileSystem.readFile(full, noFollow: !info.isSymbolicLink, limit: fileLimit + 1)
                    guard bytes.count <= fileLimit else {
                        refuse(path, "larger than \(fileLimit >> 20) MiB")
                        continue
                    }
                    total += bytes.count
                    guard total <= totalLimit else {
                        refuse(path, "the folder holds more than \(totalLimit >> 20) MiB")
                        return
                    }
                    // The folder becomes the project's extension, which is loaded unpacked and packed
                    // for release: a private key in it would be published.
                    if PrivateKeyScan.holdsPrivateKey(bytes) {
                        refuse(path, "it holds a private key; keep keys out of the extension's folder")
                        continue
                    }
                    files.append(GeneratedFile(path, bytes))
                } catch {
                    refuse(path, "cannot read it: \(error)")
                }
            }
        }
        walk("", depth: 0)
        guard refused.isEmpty else {
            throw .invalid(
                "refusing to import \(DisplayText.escaped(folder)); nothing was written. Refused:\n  "
                    + refused.joined(separator: "\n  "))
        }
        guard files.contains(where: { $0.path == "manifest.json" }) else {
            throw .missing(
                "\(DisplayText.escaped(folder)) has no manifest.json: point --from-safari at the extension's "
                    + "resources folder (Xcode's \"Resources\", beside the extension's SafariWebExtensionHandler)")
        }
        return SafariImport(files: files)
    }

    // MARK: The imported extension

    /// What `new --from-safari` changed and found, for its report.
    public struct Report: Equatable, Sendable {
        /// Each change made, one sentence each.
        public var changes: [String] = []
        /// Each API use found in the author's code that works differently here.
        public var findings: [Finding] = []
    }

    /// An API use found in the author's code (the scan's result, `SafariAPI.Finding`).
    public typealias Finding = SafariAPI.Finding

    /// The project's `extension/` files (relative to it) and the report.
    /// - Parameters:
    ///   - bundled: the bundled extension's files (for `compat/`).
    /// - Throws: `GeneratorError.invalid` (65) for a manifest Chromium and Firefox cannot load
    ///   (not JSON, not Manifest V3, a background page, a background script outside the folder).
    public func extensionFiles(spec: ProjectSpec, key: ExtensionKey, bundled: [GeneratedFile])
        throws(GeneratorError) -> (files: [GeneratedFile], report: Report)
    {
        var report = Report()
        let compat = try SafariImport.compatFiles(hostName: spec.hostName, bundled: bundled)
        guard let manifestFile = files.first(where: { $0.path == "manifest.json" }),
            case .object(var manifest)? = try? JSONParser.parse(manifestFile.bytes)
        else { throw .invalid("manifest.json is not a JSON object") }
        guard manifest["manifest_version"]?.intValue == 3 else {
            throw .invalid(
                "manifest.json has manifest_version \(DisplayText.escaped(manifest["manifest_version"].map { JSONWriter.string($0) } ?? "none")); "
                    + "Chromium loads only Manifest V3: move the extension to version 3 first (Safari supports it)")
        }
        let paths = Set(files.map(\.path))

        // Background: Chromium's service worker loads the shim, then theirs; Firefox's scripts, the shim first.
        var background: [String] = []
        var entry: GeneratedFile?
        if let value = manifest["background"] {
            guard case .object(var fields) = value else { throw .invalid("manifest.json: background is not an object") }
            if fields["page"] != nil {
                throw .invalid(
                    "manifest.json: background.page has no equivalent in Chromium's Manifest V3 (a service worker "
                        + "has no page); list the page's scripts in background.scripts instead")
            }
            if let scripts = fields["scripts"] {
                guard let list = scripts.arrayValue?.compactMap(\.stringValue), list.count == scripts.arrayValue?.count
                else { throw .invalid("manifest.json: background.scripts is not a list of paths") }
                background = list
            } else if let worker = fields["service_worker"]?.stringValue {
                background = [worker]
            }
            background = try background.map { (path: String) throws(GeneratorError) -> String in
                let plain = path.hasPrefix("/") ? String(path.dropFirst()) : path
                guard ProjectPath.isPlainRelative(plain) else {
                    throw .invalid(
                        "manifest.json: the background script '\(DisplayText.escaped(path))' is not a path inside the "
                            + "extension")
                }
                if !paths.contains(plain) {
                    report.changes.append(
                        "warning: the background script \(DisplayText.escaped(plain)) is not in the folder; the "
                            + "browsers will refuse to start the background")
                }
                return plain
            }
            let isModule = fields["type"]?.stringValue == "module"
            if fields.removeValue(forKey: "persistent") != nil {
                report.changes.append(
                    "manifest.json: dropped background.persistent (Chromium refuses it in Manifest V3; Firefox's "
                        + "Manifest V3 background is an event page anyway)")
            }
            fields["service_worker"] = .string(Self.entryPath)
            fields["scripts"] = .array(([Self.shimPath] + background).map(JSONValue.string))
            entry = GeneratedFile(Self.entryPath, text: SafariImport.serviceWorker(background, module: isModule))
            manifest["background"] = .object(fields)
            report.changes.append(
                "manifest.json: background.service_worker is \(Self.entryPath) (Chromium), which loads \(Self.shimPath), then "
                    + (background.isEmpty
                        ? "nothing else" : background.map { DisplayText.escaped($0) }.joined(separator: ", "))
                    + (isModule ? " (as modules)" : " (importScripts)"))
            report.changes.append(
                "manifest.json: background.scripts is \(Self.shimPath), then yours (Firefox)")
        }

        // Ids and permission.
        if let old = manifest["key"]?.stringValue, old != key.manifestKey {
            report.changes.append("manifest.json: replaced your key with the generated one (keys/README.md)")
        } else {
            report.changes.append(
                "manifest.json: added the generated key (Chromium id \(key.chromiumID); the private half in keys/)")
        }
        manifest["key"] = .string(key.manifestKey)
        var settings = manifest["browser_specific_settings"]?.objectValue ?? [:]
        var gecko = settings["gecko"]?.objectValue ?? [:]
        if let old = gecko["id"]?.stringValue, old != spec.firefoxID {
            report.changes.append(
                "manifest.json: replaced your gecko id \(DisplayText.escaped(old)) with \(spec.firefoxID), the "
                    + "one the host allows (bridge.json)")
        } else if gecko["id"] == nil {
            report.changes.append(
                "manifest.json: added browser_specific_settings.gecko.id \(spec.firefoxID) (without it Firefox "
                    + "gives a random id the host refuses)")
        }
        gecko["id"] = .string(spec.firefoxID)
        if gecko["strict_min_version"] == nil {
            gecko["strict_min_version"] = .string("128.0")
            report.changes.append("manifest.json: added gecko.strict_min_version 128.0 (the Firefox tested here)")
        }
        settings["gecko"] = .object(gecko)
        manifest["browser_specific_settings"] = .object(settings)
        var permissions: [JSONValue] = []
        if let value = manifest["permissions"] {
            guard let list = value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                throw .invalid("manifest.json: permissions is not a list of names")
            }
            permissions = list
        }
        if !permissions.contains(.string("nativeMessaging")) {
            permissions.append(.string("nativeMessaging"))
            report.changes.append("manifest.json: added the nativeMessaging permission")
        }
        manifest["permissions"] = .array(permissions)

        // Content scripts: `browser` in Chromium before theirs (not in the page's world, which has no extension API).
        var contentFiles: Set<String> = []
        if let value = manifest["content_scripts"] {
            guard case .array(var entries) = value else {
                throw .invalid("manifest.json: content_scripts is not a list")
            }
            var prepended = false
            for index in entries.indices {
                guard case .object(var fields) = entries[index], let js = fields["js"]?.arrayValue else { continue }
                for path in js.compactMap(\.stringValue) {
                    contentFiles.insert(path.hasPrefix("/") ? String(path.dropFirst()) : path)
                }
                if fields["world"]?.stringValue == "MAIN" || js.first == .string(Self.namespacePath) { continue }
                fields["js"] = .array([.string(Self.namespacePath)] + js)
                entries[index] = .object(fields)
                prepended = true
            }
            manifest["content_scripts"] = .array(entries)
            if prepended {
                report.changes.append(
                    "manifest.json: each content script loads \(Self.namespacePath) first (Chromium has no browser namespace)"
                )
            }
        }

        var out: [GeneratedFile] = []
        for file in files {
            if file.path == "manifest.json" {
                out.append(GeneratedFile("manifest.json", JSONWriter.prettyBytes(.object(manifest))))
            } else {
                out.append(file)
            }
        }
        out += compat
        if let entry { out.append(entry) }
        report.changes.append(
            "added \(Self.shimPath) and \(Self.namespacePath) (ExtensionBridge's: upgrade replaces them)"
                + (entry == nil ? "" : " and \(Self.entryPath) (yours: it lists your background scripts)"))
        report.changes.append(
            "copied your \(files.count - 1) other file\(files.count == 2 ? "" : "s") byte for byte")
        report.findings = SafariAPI.scan(
            files, background: Set(background), content: contentFiles)
        return (out, report)
    }

    /// The two core files with the bridge's host name.
    static func compatFiles(hostName: String, bundled: [GeneratedFile]) throws(GeneratorError) -> [GeneratedFile] {
        guard let shim = bundled.first(where: { $0.path == bundledShim }),
            let namespace = bundled.first(where: { $0.path == bundledNamespace })
        else {
            throw .missing(
                "the bundled extension has no \(bundledShim) (an older ExtensionBridge?); point --package-path at "
                    + "an ExtensionBridge checkout of this version")
        }
        let text = String(decoding: shim.bytes, as: UTF8.self)
        guard text.contains(bundledHostLine) else {
            throw .missing("the bundled \(bundledShim) has no host-name line to fill in")
        }
        let line = "const HOST_NAME = " + javaScriptString(hostName) + ";"
        return [
            GeneratedFile(shimPath, text: text.replacingAll(bundledHostLine, with: line)),
            GeneratedFile(namespacePath, namespace.bytes),
        ]
    }

    /// Chromium's service worker: the shim, then the author's scripts, each a string literal of a
    /// root-relative URL (every byte outside `A-Z a-z 0-9 - . _ ~ /` percent-encoded, so a quote,
    /// `#` or `?` in a file name neither ends the string nor changes the URL).
    static func serviceWorker(_ scripts: [String], module: Bool) -> String {
        let urls = ([shimPath] + scripts).map { javaScriptString("/" + urlPath($0)) }
        var text = """
            // Generated by `extension-bridge new --from-safari`: Chromium's service worker. It loads
            // ExtensionBridge's Safari shim, then the extension's own background scripts, unchanged.
            // Firefox reads background.scripts instead. Yours: edit it with manifest.json's background.

            """
        if module {
            for url in urls { text += "import \(url);\n" }
        } else {
            text += "importScripts(\n" + urls.map { "  \($0)," }.joined(separator: "\n") + "\n);\n"
        }
        return text
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
}

extension SafariImport.Report {
    /// The report as lines for a terminal: every name from the author's files escaped (`DisplayText`).
    public var lines: [String] {
        var out = ["changes:"]
        out += changes.map { "  - " + $0 }
        if findings.isEmpty {
            out.append("Safari APIs found: none that work differently here")
        } else {
            out.append("Safari APIs found (equivalent here: yes, differs, no):")
            for finding in findings {
                out.append(
                    "  - \(DisplayText.escaped(finding.file)):\(finding.line): \(finding.api): "
                        + "\(finding.equivalent.rawValue). \(finding.advice)")
            }
        }
        return out
    }

    /// The report as JSON (`new --json`).
    public var json: JSONValue {
        [
            "changes": .array(changes.map(JSONValue.string)),
            "findings": .array(
                findings.map {
                    [
                        "file": .string($0.file), "line": .int($0.line), "api": .string($0.api),
                        "equivalent": .string($0.equivalent.rawValue), "advice": .string($0.advice),
                    ]
                }),
        ]
    }
}
