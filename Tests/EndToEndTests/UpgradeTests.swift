import BridgeJSON
import Foundation
import TestSupport
import Testing

/// `extension-bridge upgrade` with the real CLI: a project `new` wrote, aged
/// to look as an older ExtensionBridge wrote it, then upgraded to this
/// checkout.
@Suite struct UpgradeTests {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    func cli(_ arguments: [String], _ tmp: TemporaryFolder) throws -> Finished {
        try runProcess(Binaries.cli, arguments, environment: ["HOME": tmp.path, "PATH": "/usr/bin:/bin"])
    }

    /// Every regular file under `folder` (relative path → bytes), `.build` aside.
    func snapshot(_ folder: String) -> [String: Data] {
        var out: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue
            {
                out[path] = FileManager.default.contents(atPath: folder + "/" + path)
            }
        }
        return out
    }

    func sha256(_ path: String) throws -> String {
        let done = try runProcess("/usr/bin/env", ["sha256sum", path], environment: ["PATH": "/usr/bin:/bin"])
        return String(done.outText.prefix(64))
    }

    func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// `core.json` with `version`, and `files` changed by `change`.
    func rewriteRecord(_ project: String, version: String, _ change: (inout [String: JSONValue]) throws -> Void)
        throws
    {
        let path = project + "/.extension-bridge/core.json"
        guard case .object(var members) = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path)))),
            case .object(var files)? = members["files"], case .object(var source)? = members["extensionBridge"]
        else { throw StrayBytes(offset: 0) }
        try change(&files)
        source["version"] = .string(version)
        members["files"] = .object(files)
        members["extensionBridge"] = .object(source)
        try Data(JSONWriter.prettyBytes(.object(members))).write(to: URL(fileURLWithPath: path))
    }

    /// A project as `new` wrote it before projects carried ExtensionBridge's libraries (the code on
    /// the main branch then, commit bbe8bb0): its project-level files as that `new` wrote them
    /// (`Tests/Fixtures/project-before-carried-libraries.json`: `Package.swift` naming an absolute
    /// folder of its author's machine, no products, the Safari handler in `Safari/`, no app target),
    /// around the key, ids and extension this `new` makes, with a record in that version's form
    /// (`"path"`). Returns what this version's `new` wrote.
    func projectMadeBeforeCarrying(_ project: String, _ tmp: TemporaryFolder) throws -> [String: Data] {
        let made = try cli(
            [
                "new", "App", "--host-name", "com.example.app", "--group", "group.com.example.app", "--dir", project,
                "--package-path", repository,
            ], tmp)
        try #require(made.status == 0, "\(made.stderr)")
        let fresh = snapshot(project)
        for path in [
            "ExtensionBridge", "Sources/AppApp", "Sources/app-app", "Sources/AppSafari", "Tests/AppAppTests",
            "scripts/build.sh",
        ] {
            try FileManager.default.removeItem(atPath: project + "/" + path)
        }
        let fixture = try JSONParser.parse(
            Array(
                try Data(
                    contentsOf: URL(
                        fileURLWithPath: repository + "/Tests/Fixtures/project-before-carried-libraries.json"))))
        let chromiumID = try #require(
            try JSONParser.parse(Array(fresh["bridge.json"] ?? Data()))["extension"]?["chromiumID"]?.stringValue)
        for (path, text) in fixture["files"]?.objectValue ?? [:] {
            try write(
                (text.stringValue ?? "").replacingOccurrences(of: "{{chromiumID}}", with: chromiumID),
                project + "/" + path)
            if path.hasPrefix("scripts/") { chmod(project + "/" + path, 0o755) }
        }
        // The record as that version wrote it: every core file of then, as it is on disk now.
        var files: [String: JSONValue] = [:]
        for path in snapshot(project).keys.sorted()
        where (path.hasPrefix("extension/") && !path.hasPrefix("extension/app/"))
            || ["Package.swift", "scripts/install.sh", "scripts/test.sh", "scripts/package-deb.sh", "Safari/README.md"]
                .contains(path)
        {
            files[path] = .string(try sha256(project + "/" + path))
        }
        // The manifest's fingerprint leaves its version out: this `new` recorded it so.
        let recorded = try JSONParser.parse(Array(fresh[".extension-bridge/core.json"] ?? Data()))
        files["extension/manifest.json"] = recorded["files"]?["extension/manifest.json"]
        let record: JSONValue = [
            "formatVersion": 1,
            "extensionBridge": ["version": "0.1.0", "path": fixture["sourcePath"] ?? .null],
            "files": .object(files),
        ]
        try Data(JSONWriter.prettyBytes(record)).write(
            to: URL(fileURLWithPath: project + "/.extension-bridge/core.json"))
        return fresh
    }

    /// A project as ExtensionBridge 0.0.1 would have left it (made before projects carried their
    /// libraries, then aged), with the app's own files; returns what this version's `new` wrote.
    func olderProject(_ project: String, _ tmp: TemporaryFolder) throws -> [String: Data] {
        let fresh = try projectMadeBeforeCarrying(project, tmp)
        // The older core: another router, and a file the record names that no template owns
        // (nothing has been dropped since core.json began): the app's, whatever the record says.
        try write("// the router of 0.0.1\n", project + "/extension/background/router.js")
        try write("// dropped since 0.0.1\n", project + "/extension/background/legacy.js")
        try rewriteRecord(project, version: "0.0.1") { files in
            for path in ["extension/background/router.js", "extension/background/legacy.js"] {
                files[path] = .string(try sha256(project + "/" + path))
            }
        }
        // The app's own files.
        try write("export const app = { name: 'App' };\n", project + "/extension/app/app.js")
        try write("// the app's own script\n", project + "/extension/mine.js")
        try write(#"{"extensionName": {"message": "App"}}"# + "\n", project + "/extension/_locales/de/messages.json")
        try write(
            "import BridgeHost\n// the app's own action\n", project + "/Sources/AppActions/SaveForLaterAction.swift")
        return fresh
    }

    /// Upgrading a project made before projects carried their libraries: it gets them (and the
    /// targets it lacked), its Package.swift no longer names a folder of its author's machine, the
    /// app's files stay, and a second run says it is current.
    @Test func upgrade_ofAProjectMadeBeforeCarrying_carriesTheLibraries_andThenIsCurrent() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let project = tmp.path + "/App"
        let fresh = try projectMadeBeforeCarrying(project, tmp)
        let before = snapshot(project)
        let dry = try cli(["upgrade", "--dir", project, "--package-path", repository, "--dry-run"], tmp)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(
            dry.outText.hasPrefix(
                "would update \(project)'s files to this ExtensionBridge 0.1.0's (core.json records 0.1.0 already)"),
            "\(dry.outText.prefix(300))")
        #expect(snapshot(project) == before)
        let upgraded = try cli(["upgrade", "--dir", project, "--package-path", repository], tmp)
        #expect(upgraded.status == 0, "\(upgraded.stderr)")
        let lines = upgraded.outText.split(separator: "\n").map(String.init)
        for line in [
            "  replaced    Package.swift", "  added       ExtensionBridge/Package.swift",
            "  added       Sources/AppApp/PendingImporter.swift", "  added       Tests/AppAppTests/AppSuiteTests.swift",
            "  added       Sources/AppSafari/SafariWebExtensionHandler.swift", "  added       scripts/build.sh",
            "  replaced    extension/README.md", "  kept        Safari/SafariWebExtensionHandler.swift",
            "  kept        Sources/app-host/main.swift",
        ] {
            #expect(lines.contains(line), "\(line) in \(upgraded.outText.prefix(3000))")
        }
        let after = snapshot(project)
        for (path, bytes) in fresh
        where path != "keys/extension-private-key.pem" && !path.hasPrefix("Sources/AppActions")
            && !path.hasPrefix("Sources/app-host") && !path.hasPrefix("Tests/AppHostTests") && path != "README.md"
            && path != ".gitignore"
        {
            #expect(after[path] == bytes, "\(path) is as this version's new writes it")
        }
        for path in [
            "Sources/app-host/main.swift", "README.md", "Safari/SafariWebExtensionHandler.swift", "bridge.json",
        ] {
            #expect(after[path] != nil && after[path] == before[path], "the app's \(path) is kept")
        }
        for (path, bytes) in after where !["README.md", "Safari/SafariWebExtensionHandler.swift"].contains(path) {
            #expect(
                !String(decoding: bytes, as: UTF8.self).contains("/home/me"), "\(path) names the author's folder")
        }
        let again = try cli(["upgrade", "--dir", project, "--package-path", repository], tmp)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.outText.hasPrefix("\(project) is current"), "\(again.outText.prefix(300))")
        #expect(snapshot(project) == after)
    }

    /// A project this version made is current at once: upgrade says so and writes nothing.
    @Test func upgrade_ofACurrentProject_saysItIsCurrent() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let project = tmp.path + "/App"
        let made = try cli(
            [
                "new", "App", "--host-name", "com.example.app", "--group", "group.com.example.app", "--dir", project,
                "--package-path", repository,
            ], tmp)
        try #require(made.status == 0, "\(made.stderr)")
        let before = snapshot(project)
        let dry = try cli(["upgrade", "--dir", project, "--package-path", repository, "--dry-run"], tmp)
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(
            dry.outText.hasPrefix("\(project) is current: its ExtensionBridge files are 0.1.0's, nothing to change"),
            "\(dry.outText.prefix(300))")
        #expect(!dry.outText.contains("would upgrade"))
        #expect(snapshot(project) == before)
    }

    /// The features bridge.json records are the app's: an upgrade regenerates the manifest with them.
    @Test func upgrade_keepsTheProjectsFeatures() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let project = tmp.path + "/Vocab"
        let made = try cli(
            [
                "new", "Vocab", "--host-name", "com.example.vocab", "--group", "group.com.example.vocab", "--dir",
                project, "--package-path", repository, "--features", "vocabulary",
            ], tmp)
        try #require(made.status == 0, "\(made.stderr)")
        try rewriteRecord(project, version: "0.0.1") { _ in }
        let upgraded = try cli(["upgrade", "--dir", project, "--package-path", repository], tmp)
        #expect(upgraded.status == 0, "\(upgraded.stderr)")
        let manifest = try String(contentsOfFile: project + "/extension/manifest.json", encoding: .utf8)
        #expect(!manifest.contains("contextMenus") && !manifest.contains("clipboardWrite"), "\(manifest)")
    }

    @Test func upgrade_movesTheCore_keepsKeyIdsAndAppFiles_andTwiceChangesNothing() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let project = tmp.path + "/App"
        let fresh = try olderProject(project, tmp)
        let before = snapshot(project)
        let upgraded = try cli(["upgrade", "--dir", project, "--package-path", repository], tmp)
        #expect(upgraded.status == 0, "\(upgraded.stderr)")
        let lines = upgraded.outText.split(separator: "\n").map(String.init)
        #expect(lines.first == "upgraded \(project) from ExtensionBridge 0.0.1 to ExtensionBridge 0.1.0")
        for line in [
            "  replaced    extension/background/router.js", "  replaced    Package.swift",
            "  kept        extension/background/legacy.js", "  kept        extension/app/app.js",
            "  kept        extension/mine.js", "  kept        bridge.json",
            "  kept        keys/extension-private-key.pem",
            "  kept        Sources/AppActions/SaveForLaterAction.swift",
        ] {
            #expect(lines.contains(line), "\(line) in \(upgraded.outText)")
        }
        let after = snapshot(project)
        // The app's files, the key and the ids: byte for byte.
        for path in [
            "bridge.json", "keys/extension-private-key.pem", "keys/README.md", "README.md", "extension/app/app.js",
            "extension/mine.js", "extension/_locales/de/messages.json", "Sources/AppActions/SaveForLaterAction.swift",
            "Sources/AppActions/AppInfoAction.swift", "Sources/app-host/main.swift", "extension/manifest.json",
        ] {
            #expect(after[path] != nil && after[path] == before[path], "\(path) unchanged")
        }
        // The core: exactly what this version's new writes for the app.
        // (extension/app/ is the app's: the test wrote its own app.js there.)
        for (path, bytes) in fresh
        where (path.hasPrefix("extension/") && !path.hasPrefix("extension/app/")) || path == "Package.swift" {
            #expect(after[path] == bytes, "\(path) is this version's")
        }
        #expect(after["extension/background/legacy.js"] == before["extension/background/legacy.js"])
        let record = try JSONParser.parse(Array(after[".extension-bridge/core.json"] ?? Data()))
        #expect(record["extensionBridge"]?["version"]?.stringValue == "0.1.0")
        #expect(after[".extension-bridge/core.json"] == fresh[".extension-bridge/core.json"])
        // Twice: nothing changes.
        let again = try cli(["upgrade", "--dir", project, "--package-path", repository], tmp)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.outText.contains("0 added, 0 replaced, 0 removed,"), "\(again.outText)")
        #expect(snapshot(project) == after)
    }

    @Test func anEditedCoreFile_isRefusedWith65AndNothingChanges_forceKeepsOrig() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let project = tmp.path + "/App"
        let fresh = try olderProject(project, tmp)
        try write("/* the app's colours */\n", project + "/extension/popup/popup.css")
        try write("// the app's router\n", project + "/extension/background/router.js")
        let before = snapshot(project)
        let refused = try cli(["upgrade", "--dir", project, "--package-path", repository], tmp)
        #expect(refused.status == 65, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("extension/background/router.js, extension/popup/popup.css"), "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
        #expect(snapshot(project) == before, "a refusal changes nothing")
        let dry = try cli(["upgrade", "--dir", project, "--package-path", repository, "--force", "--dry-run"], tmp)
        #expect(dry.status == 0 && dry.outText.hasPrefix("would upgrade"), "\(dry.stderr)")
        #expect(snapshot(project) == before, "--dry-run writes nothing")
        let forced = try cli(["upgrade", "--dir", project, "--package-path", repository, "--force"], tmp)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.outText.contains("  kept as .orig extension/popup/popup.css -> extension/popup/popup.css.orig"))
        let after = snapshot(project)
        #expect(after["extension/popup/popup.css.orig"] == Data("/* the app's colours */\n".utf8))
        #expect(after["extension/background/router.js.orig"] == Data("// the app's router\n".utf8))
        #expect(after["extension/popup/popup.css"] == fresh["extension/popup/popup.css"])
        #expect(after["bridge.json"] == before["bridge.json"])
    }

    @Test func refusals_newerRecord_notAProject_noRecord() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let project = tmp.path + "/App"
        _ = try olderProject(project, tmp)
        try rewriteRecord(project, version: "99.0.0") { _ in }
        let before = snapshot(project)
        let newer = try cli(["upgrade", "--dir", project, "--package-path", repository, "--force"], tmp)
        #expect(newer.status == 65, "\(newer.stderr)")
        #expect(newer.stderr.contains("ExtensionBridge 99.0.0, newer than this one (0.1.0); upgrade never downgrades"))
        #expect(snapshot(project) == before)
        try rewriteRecord(project, version: "0.0.1") { _ in }
        // A pin older than the templates upgrade writes: refused, nothing changed; the pin upgrade writes is said.
        let url = "https://example.com/extension-bridge.git"
        let pinned = snapshot(project)
        let old = try cli(["upgrade", "--dir", project, "--package-url", url, "--from", "0.0.1", "--dry-run"], tmp)
        #expect(old.status == 65, "\(old.stderr)")
        #expect(old.stderr.contains("--from 0.0.1 is older than the ExtensionBridge 0.1.0"), "\(old.stderr)")
        let current = try cli(["upgrade", "--dir", project, "--package-url", url, "--from", "0.1.0", "--dry-run"], tmp)
        #expect(current.status == 0, "\(current.stderr)")
        #expect(
            current.outText.contains("\n  Package.swift would depend on \(url), exactly 0.1.0\n"), "\(current.outText)")
        #expect(snapshot(project) == pinned)
        let notProject = try cli(["upgrade", "--dir", tmp.path, "--package-path", repository], tmp)
        #expect(notProject.status == 66, "\(notProject.stderr)")
        #expect(notProject.stderr.contains("is not an extension-bridge project"))
        try FileManager.default.removeItem(atPath: project + "/.extension-bridge/core.json")
        let legacy = try cli(["upgrade", "--dir", project, "--package-path", repository], tmp)
        #expect(legacy.status == 66, "\(legacy.stderr)")
        #expect(legacy.stderr.contains("pass --force"))
    }

    /// `new` copies the libraries a project carries from the source it found (the versioned folder
    /// the installed `source` link points to) and records that source's version; no folder of this
    /// machine is written into the project.
    @Test func new_carriesTheLibrariesOfItsSource_andRecordsItsVersion() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let prefix = tmp.path + "/prefix"
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Binaries.cli, toPath: prefix + "/bin/extension-bridge")
        let share = prefix + "/share/extension-bridge"
        let versioned = share + "/sources/0.2.0"
        try FileManager.default.createDirectory(atPath: versioned, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: repository + "/Sources", toPath: versioned + "/Sources")
        try write("let package = Package(name: \"ExtensionBridge\")\n", versioned + "/Package.swift")
        try write(
            "public enum BridgeVersion {\n    public static let current = \"0.2.0\"\n}\n",
            versioned + "/Sources/BridgeProtocol/BridgeVersion.swift")
        try FileManager.default.copyItem(atPath: repository + "/extension", toPath: versioned + "/extension")
        try FileManager.default.createSymbolicLink(atPath: share + "/source", withDestinationPath: "sources/0.2.0")
        let made = try runProcess(
            prefix + "/bin/extension-bridge",
            [
                "new", "App", "--host-name", "com.example.app", "--group", "group.com.example.app", "--dir",
                tmp.path + "/App",
            ],
            environment: ["HOME": tmp.path, "PATH": "/usr/bin:/bin"])
        #expect(made.status == 0, "\(made.stderr)")
        let files = snapshot(tmp.path + "/App")
        let package = String(decoding: files["Package.swift"] ?? Data(), as: UTF8.self)
        #expect(package.contains(#".package(path: "ExtensionBridge")"#), "\(package)")
        #expect(
            files["ExtensionBridge/Sources/BridgeProtocol/BridgeVersion.swift"]
                == FileManager.default.contents(atPath: versioned + "/Sources/BridgeProtocol/BridgeVersion.swift"))
        let record = try JSONParser.parse(Array(files[".extension-bridge/core.json"] ?? Data()))
        #expect(record["extensionBridge"]?["version"]?.stringValue == "0.2.0")
        #expect(record["extensionBridge"]?["carried"]?.stringValue == "ExtensionBridge")
        for (path, bytes) in files {
            #expect(
                !String(decoding: bytes, as: UTF8.self).contains(tmp.path), "\(path) names a folder of this machine")
        }
    }

    /// The upgraded project builds and passes its own tests (scripts/test.sh: a Swift build of the
    /// project against this checkout, offline, and the extension's node tests): about a minute, so
    /// once, in the plain build and not again under each sanitizer.
    @Test(.enabled(if: !Binaries.isSanitized))
    func upgradedProject_passesItsOwnTests() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let project = tmp.path + "/App"
        _ = try projectMadeBeforeCarrying(project, tmp)
        let upgraded = try cli(["upgrade", "--dir", project, "--package-path", repository], tmp)
        #expect(upgraded.status == 0, "\(upgraded.stderr)")
        let environment = ProcessInfo.processInfo.environment
        let tested = try runProcess(
            "/usr/bin/env", ["bash", project + "/scripts/test.sh"],
            environment: ["HOME": environment["HOME"] ?? tmp.path, "PATH": environment["PATH"] ?? "/usr/bin:/bin"])
        #expect(tested.status == 0, "\(tested.outText.suffix(4000))\n\(tested.stderr)")
        // The app target upgrade added is built and tested too.
        #expect(
            tested.outText.contains("import_drainsASavedItemIntoTheStore_eachURLOnce"), "\(tested.outText.suffix(2000))"
        )
    }
}
