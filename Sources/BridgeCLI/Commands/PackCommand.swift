import BridgeJSON
import BridgeSystem
import BrowserSupport

/// `pack [--config bridge.json | --extension-dir DIR] [--out DIR] [--update-url BASE] [--key PEM]`:
/// the release packages of an extension (`ExtensionPackage`), written atomically.
struct PackCommand {
    let context: CLIContext
    let args: Invocation

    func run() throws(CLIError) {
        if args.has(BrowserOptions.config) && args.has(BrowserOptions.extensionDirectory) {
            throw .usage("--config and --extension-dir exclude each other (the bridge names its folder)", verb: "pack")
        }
        let cwd = FileSystem.currentDirectory() ?? "."
        func absolute(_ path: String) -> String { path.hasPrefix("/") ? path : cwd + "/" + path }
        // Check what was typed before reading anything or making a key.
        let updateURL = try pack { () throws(PackError) in try args[PackVerbOptions.updateURL].map(UpdateURL.init) }
        let browser = BrowserInputs(context: context, args: args)
        let bridge = try browser.bridge()
        let folder: String
        if let bridge { folder = bridge.extensionFolder } else { folder = try browser.extensionFolder() }
        let out = args[PackVerbOptions.out] ?? "dist"
        if Self.isInside(absolute(out), absolute(folder)) {
            throw .usage(
                "--out \(out) is inside the extension folder \(folder): the next pack would pack the packages; "
                    + "choose a folder outside it", verb: "pack")
        }
        if args[PackVerbOptions.changelog] != nil && !args.has(PackVerbOptions.deb) {
            throw .usage("--changelog is the Debian package's changelog: it goes with --deb", verb: "pack")
        }
        if args.has(PackVerbOptions.deb) {
            if args[PackVerbOptions.updateURL] != nil || args[PackVerbOptions.key] != nil {
                throw .usage("--deb packages no CRX: --update-url and --key belong to the store packages", verb: "pack")
            }
            let deb = try debian(out: out)
            try context.print(args.json ? JSONWriter.string(["kind": "deb", "path": .string(deb)]) : "wrote \(deb)")
            return
        }
        var package = try pack { () throws(PackError) in
            try ExtensionPackage(extensionDirectory: folder, chromiumManifest: bridge?.chromiumManifest)
        }
        // A bridge's packages carry its one name (`readlater-1.0.0.crx`, as `readlater-host` and the
        // `readlater` Debian package), not one made from the manifest's display name.
        if let bridge { package.slug = bridge.fileName }
        if !package.leftOut.isEmpty {
            context.writeErr(
                "pack: left out of the packages as developer files: "
                    + package.leftOut.map { DisplayText.escaped($0) }.joined(separator: ", ")
                    + " (rename any your extension loads; docs/SHIPPING.md)")
        }
        let source = try browser.signingKeySource()
        let (files, key, createdKey) = try pack { () throws(PackError) in
            try package.releaseFiles(updateURL: updateURL, signedBy: source, searchPath: context.environment["PATH"])
        }
        if createdKey { browser.saidMadeKey(source.path, chromiumID: key.chromiumID) }
        // A key that signed a package may sign a release: uninstall must leave it from now on.
        let home = try browser.home
        let receipt = Installer.defaultReceiptPath(home: home, environment: context.environment)
        do {
            try Installer(home: home, receiptPath: receipt).keepSigningKey(
                FileSystem.absolutePath(source.path, from: FileSystem.currentDirectory() ?? "/"))
        } catch {
            throw CLIError(.io, error.description)
        }
        do {
            try FileSystem.makeDirectories(out, permissions: 0o755)
        } catch {
            throw CLIError(.io, "cannot make the output folder: \(error)")
        }
        for file in files {
            let path = out + "/" + file.name
            do {
                try FileSystem.writeAtomically(path, file.bytes, permissions: 0o644)
            } catch {
                throw CLIError(.io, "cannot write \(path): \(error)")
            }
            if args.json {
                var record: [String: JSONValue] = [
                    "kind": .string(file.kind), "path": .string(path), "bytes": .int(file.bytes.count),
                    "sha256": .string(FileSystem.hex(SHA256.digest(file.bytes))), "version": .string(package.version),
                ]
                if file.kind == "crx" { record["chromiumID"] = .string(key.chromiumID) }
                if file.kind == "xpi", let id = package.firefoxID { record["firefoxID"] = .string(id) }
                try context.print(JSONWriter.string(.object(record)))
            } else {
                try context.print("wrote \(path) (\(file.bytes.count) bytes)")
            }
        }
    }

    /// True when `path` is `folder` or below it (paths compared as written, made absolute).
    static func isInside(_ path: String, _ folder: String) -> Bool {
        func components(_ text: String) -> [Substring] {
            var out: [Substring] = []
            for part in text.split(separator: "/") where part != "." {
                if part == ".." { _ = out.popLast() } else { out.append(part) }
            }
            return out
        }
        let inner = components(path)
        let outer = components(folder)
        return inner.count >= outer.count && Array(inner.prefix(outer.count)) == outer
    }
}
