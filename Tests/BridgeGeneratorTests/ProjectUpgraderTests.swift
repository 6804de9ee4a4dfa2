import BridgeJSON
import BridgeSystem
import BrowserSupport
import Foundation
import TestSupport
import Testing

@testable import BridgeGenerator

/// `ProjectUpgrader` on a real disk: a project written as `new` writes it
/// (a made-up key), then aged or attacked, then upgraded.
@Suite struct ProjectUpgraderTests {
    let spec = ProjectSpec(
        name: "ReadLater", hostName: "com.example.readlater", group: "group.com.example.readlater",
        dependency: .carried)
    let key = ExtensionKey(
        privateKeyPEM: Array("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n".utf8),
        publicKeyDER: (0..<294).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    let template: [GeneratedFile]

    let carried: CarriedSource

    init() throws {
        template = try ProjectWriter.readTree(ProjectTemplateTests.repository + "/extension")
        carried = try ProjectTemplateTests.carried("0.1.0")
    }

    /// A project as ExtensionBridge 0.0.1 wrote it: router.js and Package.swift different, an extra
    /// core file since dropped, all recorded.
    func olderProject(_ tmp: TemporaryFolder) throws -> String {
        let folder = tmp.path + "/ReadLater"
        var files = try ProjectTemplate.files(
            spec: spec, key: key, extensionFiles: template, carried: ProjectTemplateTests.carried("0.0.1"))
        files.removeAll { $0.path == CoreRecord.path }
        for index in files.indices where files[index].path == "extension/background/router.js" {
            files[index].bytes = Array("// the old router\n".utf8)
        }
        files.append(GeneratedFile("extension/background/legacy.js", text: "// dropped since\n"))
        let record = CoreRecord(
            version: "0.0.1", dependency: spec.dependency, coreFiles: ProjectOwnership.coreFiles(files))
        files.append(GeneratedFile(CoreRecord.path, JSONWriter.prettyBytes(record.json)))
        files.append(GeneratedFile("extension/app/app.js", text: "export const app = 'mine';\n"))
        try ProjectWriter.write(files, to: folder, force: false)
        return folder
    }

    /// The upgrader to this version; `legacy.js` is a core file 0.0.1 wrote and 0.1.0 dropped.
    func upgrader(_ folder: String, force: Bool = false) -> ProjectUpgrader {
        var upgrader = ProjectUpgrader(
            project: folder, extensionFiles: template, carried: carried, dependency: .carried, force: force)
        upgrader.retiredCoreFiles = ["extension/background/legacy.js"]
        return upgrader
    }

    /// Every file under `folder` with its bytes.
    func snapshot(_ folder: String) throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for file in try ProjectWriter.readTree(folder) { out[file.path] = file.bytes }
        return out
    }

    @Test func upgrade_replacesTheCore_keepsTheApps_andASecondRunChangesNothing() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try olderProject(tmp)
        let before = try snapshot(folder)
        let plan = try upgrader(folder).plan()
        #expect(plan.replaced.contains("extension/background/router.js"))
        #expect(plan.replaced.contains("ExtensionBridge/Package.swift"), "the carried libraries move to 0.1.0")
        #expect(plan.removals == ["extension/background/legacy.js"])
        #expect(plan.kept.contains("bridge.json") && plan.kept.contains("extension/app/app.js"))
        try upgrader(folder).apply(plan)
        let after = try snapshot(folder)
        for path in ["bridge.json", "keys/extension-private-key.pem", "extension/app/app.js", "README.md"] {
            #expect(after[path] == before[path], "\(path)")
        }
        #expect(after["extension/background/router.js"] == template.first { $0.path == "background/router.js" }?.bytes)
        #expect(after["extension/background/legacy.js"] == nil)
        #expect(
            String(decoding: after["Package.swift"] ?? [], as: UTF8.self).contains(
                ".package(path: \"ExtensionBridge\")"))
        #expect(try ProjectUpgrader.record(in: folder)?.version == "0.1.0")
        #expect(try FileSystem.listDirectory(folder + "/.extension-bridge") == ["core.json"], "no staging left")
        let again = try upgrader(folder).plan()
        #expect(!again.changesFiles)
        try upgrader(folder).apply(again)
        #expect(try snapshot(folder) == after)
    }

    /// A project made before projects carried ExtensionBridge: `Package.swift` named an absolute folder
    /// of its author's machine, and it had no app target, no Safari library, no build script.
    @Test func upgrade_ofAProjectBeforeTheCarriedLibraries_carriesThem_andAddsTheNewTargetsOnly() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try olderProject(tmp)
        for path in [
            "ExtensionBridge", "Sources/ReadLaterApp", "Sources/readlater-app", "Sources/ReadLaterSafari",
            "Tests/ReadLaterAppTests", "scripts/build.sh",
        ] {
            try FileSystem.removeTree(folder + "/" + path)
        }
        let oldPackage = "// depends on .package(name: \"ExtensionBridge\", path: \"/home/me/eb/0.0.1\")\n"
        try FileSystem.writeAtomically(folder + "/Package.swift", Array(oldPackage.utf8))
        try FileSystem.writeAtomically(folder + "/Sources/readlater-host/main.swift", Array("// mine\n".utf8))
        var files: [String: JSONValue] = [:]
        for file in try ProjectWriter.readTree(folder) where ProjectOwnership.isCore(file.path) {
            files[file.path] = .string(CoreRecord.fingerprint(path: file.path, bytes: file.bytes))
        }
        let legacy: JSONValue = [
            "formatVersion": 1, "extensionBridge": ["version": "0.0.1", "path": "/home/me/eb/0.0.1"],
            "files": .object(files),
        ]
        try FileSystem.writeAtomically(folder + "/" + CoreRecord.path, JSONWriter.prettyBytes(legacy))
        let plan = try upgrader(folder).plan()
        #expect(plan.edited.isEmpty, "\(plan.edited)")
        #expect(plan.replaced.contains("Package.swift"))
        #expect(plan.added.contains("ExtensionBridge/Package.swift"))
        #expect(plan.added.contains("ExtensionBridge/Sources/BridgeHost/Session/HostProgram.swift"))
        #expect(plan.added.contains("scripts/build.sh"))
        for path in [
            "Sources/ReadLaterApp/PendingImporter.swift", "Sources/readlater-app/main.swift",
            "Sources/ReadLaterSafari/SafariWebExtensionHandler.swift", "Tests/ReadLaterAppTests/AppSuiteTests.swift",
        ] {
            #expect(plan.added.contains(path), "the new target's \(path)")
        }
        // A target folder the project has is the app's: nothing is added to it or replaced in it.
        #expect(!plan.writes.contains { $0.file.path.hasPrefix("Sources/readlater-host/") })
        #expect(plan.kept.contains("Sources/readlater-host/main.swift"))
        try upgrader(folder).apply(plan)
        let after = try snapshot(folder)
        #expect(after["Sources/readlater-host/main.swift"] == Array("// mine\n".utf8))
        let package = String(decoding: after["Package.swift"] ?? [], as: UTF8.self)
        #expect(package.contains(".package(path: \"ExtensionBridge\")") && !package.contains("/home/me"))
        let record = try #require(try ProjectUpgrader.record(in: folder))
        #expect(record.dependency == .carried && record.version == "0.1.0")
        #expect(!String(decoding: after[CoreRecord.path] ?? [], as: UTF8.self).contains("/home/me"))
        // The added app files are the app's from now on: a second run plans nothing.
        #expect(!(try upgrader(folder).plan().changesFiles))
    }

    @Test func aFailedRename_leavesTheProjectAsItWas() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try olderProject(tmp)
        let before = try snapshot(folder)
        var failing = upgrader(folder)
        nonisolated(unsafe) var calls = 0
        failing.move = { (from, to) throws(SystemError) in
            calls += 1
            if calls == 4 { throw SystemError("rename", from, code: 28) }
            try FileSystem.move(from, to)
        }
        #expect(throws: GeneratorError.self) { try failing.apply(try failing.plan()) }
        #expect(calls == 4)
        #expect(try snapshot(folder) == before)
        #expect(try FileSystem.listDirectory(folder + "/.extension-bridge") == ["core.json"])
    }

    @Test func anEditedCoreFile_isRefusedByName_andForceKeepsItAsOrig() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try olderProject(tmp)
        try FileSystem.writeAtomically(folder + "/extension/popup/popup.css", Array("/* mine */\n".utf8))
        let before = try snapshot(folder)
        #expect {
            try upgrader(folder).plan()
        } throws: { error in
            (error as? GeneratorError)?.exitStatus == 65 && "\(error)".contains("extension/popup/popup.css")
        }
        #expect(try snapshot(folder) == before)
        let forced = upgrader(folder, force: true)
        try forced.apply(try forced.plan())
        let after = try snapshot(folder)
        #expect(after["extension/popup/popup.css.orig"] == Array("/* mine */\n".utf8))
        #expect(after["extension/popup/popup.css"] == template.first { $0.path == "popup/popup.css" }?.bytes)
    }

    @Test func attacks_areRefused_andChangeNothing() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try olderProject(tmp)
        func refused(_ expected: Int32, _ contains: String) throws {
            let before = try snapshot(folder)
            #expect {
                try upgrader(folder, force: true).plan()
            } throws: { error in
                (error as? GeneratorError)?.exitStatus == expected && "\(error)".contains(contains)
            }
            #expect(try snapshot(folder) == before)
        }
        let recordPath = folder + "/" + CoreRecord.path
        let good = try FileSystem.readFile(recordPath)
        // A record that names paths outside the project, or the app's.
        for path in ["../../etc/passwd", "/etc/passwd", "keys/extension-private-key.pem", "bridge.json"] {
            var json = try JSONParser.parse(good)
            if case .object(var members) = json, case .object(var files)? = members["files"] {
                files[path] = .string(String(repeating: "0", count: 64))
                members["files"] = .object(files)
                json = .object(members)
            }
            try FileSystem.writeAtomically(recordPath, JSONWriter.prettyBytes(json), permissions: 0o644)
            try refused(65, path)
        }
        // A record from a newer ExtensionBridge: never a downgrade.
        try FileSystem.writeAtomically(
            recordPath, Array(String(decoding: good, as: UTF8.self).replacingAll("\"0.0.1\"", with: "\"9.0.0\"").utf8),
            permissions: 0o644)
        try refused(65, "never downgrades")
        try FileSystem.writeAtomically(recordPath, good, permissions: 0o644)
        // A core file that is a link (to a file outside), and a core folder that is one.
        let outside = tmp.path + "/outside.js"
        try FileSystem.writeAtomically(outside, Array("x".utf8))
        try FileSystem.remove(folder + "/extension/content/engine.js")
        try FileSystem.makeSymbolicLink(folder + "/extension/content/engine.js", pointingTo: outside)
        try refused(65, "extension/content/engine.js (a link)")
        #expect(try FileSystem.readFile(outside) == Array("x".utf8))
        try FileSystem.remove(folder + "/extension/content/engine.js")
        try FileSystem.writeAtomically(
            folder + "/extension/content/engine.js", template.first { $0.path == "content/engine.js" }?.bytes ?? [],
            permissions: 0o644)
        try FileSystem.move(folder + "/extension/icons", tmp.path + "/icons")
        try FileSystem.makeSymbolicLink(folder + "/extension/icons", pointingTo: tmp.path + "/icons")
        try refused(65, "icons is a link")
        try FileSystem.remove(folder + "/extension/icons")
        try FileSystem.move(tmp.path + "/icons", folder + "/extension/icons")
        // A key that does not give bridge.json's id: loading bridge.json refuses it, naming both ids.
        try FileSystem.writeAtomically(
            folder + "/bridge.json",
            Array(
                String(decoding: try FileSystem.readFile(folder + "/bridge.json"), as: UTF8.self).replacingAll(
                    key.chromiumID, with: String(repeating: "a", count: 32)
                ).utf8), permissions: 0o644)
        try refused(65, "set extension.chromiumID to \(key.chromiumID)")
        // A folder that is not a project.
        let empty = tmp.path + "/empty"
        try FileSystem.makeDirectory(empty)
        #expect {
            try upgrader(empty).plan()
        } throws: { error in
            (error as? GeneratorError)?.exitStatus == 66 && "\(error)".contains("not an extension-bridge project")
        }
    }

    /// Only a file a template owned is removed: the same dropped file, not retired by any template,
    /// is the app's whatever core.json says (a record can be edited or merged); so is the app's own
    /// file named there with its fingerprint.
    @Test func aRecordedFileNoTemplateOwns_isKept() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try olderProject(tmp)
        try FileSystem.writeAtomically(folder + "/extension/mine.js", Array("// the app's\n".utf8), permissions: 0o644)
        var record = try #require(try ProjectUpgrader.record(in: folder))
        record.files["extension/mine.js"] = CoreRecord.fingerprint(
            path: "extension/mine.js", bytes: Array("// the app's\n".utf8))
        try FileSystem.writeAtomically(
            folder + "/" + CoreRecord.path, JSONWriter.prettyBytes(record.json), permissions: 0o644)
        var plain = upgrader(folder)
        plain.retiredCoreFiles = []
        let plan = try plain.plan()
        #expect(plan.removals.isEmpty)
        #expect(plan.kept.contains("extension/mine.js") && plan.kept.contains("extension/background/legacy.js"))
        try plain.apply(plan)
        #expect(try FileSystem.readFile(folder + "/extension/mine.js") == Array("// the app's\n".utf8))
        #expect(try FileSystem.status(folder + "/extension/background/legacy.js") != nil)
        #expect(try ProjectUpgrader.record(in: folder)?.files["extension/mine.js"] == nil)
    }

    /// The carried libraries' folder is ExtensionBridge's whole: a file of an older version's libraries
    /// that the newer ones lack (a module's file renamed) is removed without a `retiredCoreFiles` entry,
    /// and refused like any core file when it was edited.
    @Test func aCarriedFileTheNewerLibrariesLack_isRemoved_unlessEdited() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try olderProject(tmp)
        let old = "ExtensionBridge/Sources/BridgeHost/Renamed.swift"
        let bytes = Array("// a file 0.0.1's BridgeHost had\n".utf8)
        try FileSystem.writeAtomically(folder + "/" + old, bytes, permissions: 0o644)
        var record = try #require(try ProjectUpgrader.record(in: folder))
        record.files[old] = CoreRecord.fingerprint(path: old, bytes: bytes)
        try FileSystem.writeAtomically(
            folder + "/" + CoreRecord.path, JSONWriter.prettyBytes(record.json), permissions: 0o644)
        var plain = upgrader(folder)
        plain.retiredCoreFiles = []
        try FileSystem.writeAtomically(folder + "/" + old, Array("// edited\n".utf8), permissions: 0o644)
        #expect(throws: GeneratorError.self) { try plain.plan() }
        try FileSystem.writeAtomically(folder + "/" + old, bytes, permissions: 0o644)
        let plan = try plain.plan()
        #expect(plan.removals == [old])
        try plain.apply(plan)
        #expect(try FileSystem.status(folder + "/" + old) == nil)
        #expect(try ProjectUpgrader.record(in: folder)?.files[old] == nil)
    }

    /// `--package-url URL --from` older than the templates is refused, nothing written; the pin
    /// upgrade writes is said.
    @Test func aPinOlderThanTheTemplates_isRefused_andThePinIsSaid() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = try olderProject(tmp)
        let before = try snapshot(folder)
        var old = upgrader(folder)
        old.dependency = .url("https://example.com/extension-bridge.git", exact: "0.0.1")
        #expect {
            try old.plan()
        } throws: { error in
            (error as? GeneratorError)?.exitStatus == 65 && "\(error)".contains("--from 0.0.1 is older than")
        }
        #expect(try snapshot(folder) == before)
        var pinned = upgrader(folder)
        pinned.dependency = .url("https://example.com/extension-bridge.git", exact: "0.1.0")
        let plan = try pinned.plan()
        #expect(
            plan.summary(project: folder, dryRun: false)[1]
                == "  Package.swift depends on https://example.com/extension-bridge.git, exactly 0.1.0")
        #expect(plan.summaryJSON(project: folder, dryRun: true)["dependency"]?["exact"] == "0.1.0")
        func pin(_ exact: String) -> ProjectSpec {
            ProjectSpec(
                name: "A", hostName: "com.example.a", group: "group.a",
                dependency: .url("https://example.com/extension-bridge.git", exact: exact))
        }
        #expect(throws: GeneratorError.self) { try pin("0.1.0-beta.1").checkPin(templates: "0.1.0") }
        #expect(throws: Never.self) { try pin("0.2.0").checkPin(templates: "0.1.0") }
    }
}
