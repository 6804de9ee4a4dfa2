import BridgeJSON
import Testing

@testable import BridgeGenerator

/// The core/app rule, the record's checks and the plan, without a disk.
@Suite struct UpgradePlanTests {
    func file(_ path: String, _ text: String) -> GeneratedFile { GeneratedFile(path, text: text) }
    func record(_ version: String, _ files: [GeneratedFile]) -> CoreRecord {
        CoreRecord(version: version, dependency: .carried, coreFiles: files)
    }

    @Test func ownership_extensionOutsideAppAndTheScaffoldingAreCore_theRestIsTheApps() {
        for path in [
            "extension/manifest.json", "extension/background/router.js", "extension/_locales/en/messages.json",
            "Package.swift", "scripts/install.sh", "scripts/test.sh", "scripts/package-deb.sh", "Safari/README.md",
        ] {
            #expect(ProjectOwnership.isCore(path), "\(path)")
        }
        for path in [
            "extension/app/app.js", "extension/app/nested/x.js", "bridge.json", "keys/extension-private-key.pem",
            "keys/README.md", "README.md", ".gitignore", "Sources/ReadLaterActions/AppInfoAction.swift",
            "Sources/readlater-host/main.swift", "Safari/SafariWebExtensionHandler.swift", "scripts/mine.sh",
        ] {
            #expect(!ProjectOwnership.isCore(path), "\(path)")
        }
    }

    @Test func plainRelativePath_refusesEscapesAbsoluteAndControls() {
        #expect(ProjectPath.isPlainRelative("extension/a.js"))
        for bad in ["", "/etc/passwd", "../../etc/passwd", "extension/../bridge.json", "extension//a", "./a", "a\n"] {
            #expect(!ProjectPath.isPlainRelative(bad), "\(bad)")
        }
    }

    @Test func record_roundTrips_andRefusesEscapingOrAppPaths() throws {
        let written = record("0.1.0", [file("extension/a.js", "a"), file("Package.swift", "p")])
        #expect(try CoreRecord.parse(JSONWriter.prettyBytes(written.json)) == written)
        let hash = String(repeating: "a", count: 64)
        for path in [
            "../../etc/passwd", "/etc/passwd", "keys/extension-private-key.pem", "bridge.json", "extension/app/app.js",
        ] {
            let json: JSONValue = [
                "formatVersion": 1, "extensionBridge": ["version": "0.1.0", "path": "/src"],
                "files": .object([path: .string(hash)]),
            ]
            #expect(throws: GeneratorError.self, "\(path)") { try CoreRecord.parse(JSONWriter.bytes(json)) }
        }
        let newer: JSONValue = [
            "formatVersion": 2, "extensionBridge": ["version": "0.1.0", "path": "/s"], "files": [:],
        ]
        #expect(throws: GeneratorError.self) { try CoreRecord.parse(JSONWriter.bytes(newer)) }
    }

    @Test func fingerprint_ofTheManifest_ignoresTheAppsVersion() {
        let a = Array(#"{"name": "X", "version": "1.0.0"}"#.utf8)
        let b = Array(#"{"name": "X", "version": "2.3.0"}"#.utf8)
        let c = Array(#"{"name": "Y", "version": "1.0.0"}"#.utf8)
        #expect(
            CoreRecord.fingerprint(path: "extension/manifest.json", bytes: a)
                == CoreRecord.fingerprint(path: "extension/manifest.json", bytes: b))
        #expect(
            CoreRecord.fingerprint(path: "extension/manifest.json", bytes: a)
                != CoreRecord.fingerprint(path: "extension/manifest.json", bytes: c))
        #expect(
            CoreRecord.fingerprint(path: "extension/a.json", bytes: a)
                != CoreRecord.fingerprint(path: "extension/a.json", bytes: b))
    }

    @Test func semanticVersion_ordersAsSemver() throws {
        func v(_ s: String) throws -> SemanticVersion { try #require(SemanticVersion(s)) }
        #expect(try v("0.0.9") < v("0.1.0"))
        #expect(try v("0.10.0") > v("0.9.9"))
        #expect(try v("1.0.0-beta.1") < v("1.0.0"))
        #expect(try v("1.0.0-beta.2") < v("1.0.0-beta.10"))
        #expect(try v("1.0.0+build") == v("1.0.0"))
        #expect(SemanticVersion("1.0") == nil)
    }

    /// The old core: a.js, b.js (edited by the app), gone.js; the new: a.js changed, b.js changed, new.js.
    @Test func plan_sortsEveryFile_andNamesTheEditedOnes() throws {
        let old = [file("extension/a.js", "a1"), file("extension/b.js", "b1"), file("extension/gone.js", "g")]
        let new = [file("extension/a.js", "a2"), file("extension/b.js", "b2"), file("extension/new.js", "n")]
        let found: [String: UpgradePlan.Found] = [
            "extension/a.js": .file(Array("a1".utf8)), "extension/b.js": .file(Array("b1 edited".utf8)),
            "extension/gone.js": .file(Array("g".utf8)), "extension/new.js": .missing,
        ]
        let plan = try UpgradePlan.make(
            recorded: record("0.0.1", old), found: found, newCore: new,
            newAppFiles: [file("extension/app/app.js", "app")], appFiles: ["extension/mine.js", "bridge.json"],
            record: record("0.1.0", new), retired: ["extension/gone.js"])
        #expect(plan.added == ["extension/new.js", "extension/app/app.js"])
        #expect(plan.replaced == ["extension/a.js", "extension/b.js"])
        #expect(plan.removals == ["extension/gone.js"])
        #expect(plan.edited == ["extension/b.js"])
        #expect(plan.keptAsOrig == ["extension/b.js"])
        #expect(plan.kept == ["bridge.json", "extension/mine.js"])
        let summary = plan.summary(project: "/p", dryRun: false)
        #expect(summary.first == "upgraded /p from ExtensionBridge 0.0.1 to ExtensionBridge 0.1.0")
        #expect(summary.contains("  added       extension/new.js"))
        #expect(summary.contains("  replaced    extension/a.js"))
        #expect(summary.contains("  removed     extension/gone.js"))
        #expect(summary.contains("  kept as .orig extension/b.js -> extension/b.js.orig"))
        #expect(summary.contains("  kept        extension/mine.js"))
        #expect(summary.last == "2 added, 2 replaced, 1 removed, 0 unchanged, 2 of the app's kept, 1 .orig")
    }

    /// A record naming a file no template owns (not in the newer core, not retired), unedited: it
    /// is not the plan's to touch; the newer record drops it.
    @Test func plan_aRecordedFileNoTemplateOwns_isLeftAlone() throws {
        let core = [file("extension/a.js", "a")]
        let plan = try UpgradePlan.make(
            recorded: record("0.0.1", core + [file("extension/theirs.js", "t")]),
            found: ["extension/a.js": .file(Array("a".utf8)), "extension/theirs.js": .file(Array("t".utf8))],
            newCore: core, appFiles: ["extension/theirs.js"], record: record("0.1.0", core))
        #expect(plan.removals.isEmpty && plan.writes.isEmpty && plan.keptAsOrig.isEmpty)
        #expect(plan.kept == ["extension/theirs.js"])
        #expect(plan.record.files["extension/theirs.js"] == nil)
    }

    @Test func plan_anAppFileThatExists_isNeverWritten_andAnUpToDateProjectChangesNothing() throws {
        let core = [file("extension/a.js", "a")]
        let plan = try UpgradePlan.make(
            recorded: record("0.1.0", core),
            found: ["extension/a.js": .file(Array("a".utf8)), "extension/app/app.js": .file(Array("mine".utf8))],
            newCore: core, newAppFiles: [file("extension/app/app.js", "template")], appFiles: ["extension/app/app.js"],
            record: record("0.1.0", core))
        #expect(!plan.changesFiles)
        #expect(plan.unchanged == ["extension/a.js"])
        #expect(plan.kept == ["extension/app/app.js"])
    }

    @Test func plan_aLinkedCoreFile_isRefusedByName() {
        let core = [file("extension/a.js", "a")]
        #expect(throws: GeneratorError.self) {
            try UpgradePlan.make(
                recorded: record("0.1.0", core), found: ["extension/a.js": .notRegular("a link")], newCore: core,
                appFiles: [], record: record("0.1.0", core))
        }
    }

    @Test func plan_withoutARecord_countsEveryDifferingCoreFileAsEdited() throws {
        let plan = try UpgradePlan.make(
            recorded: nil,
            found: ["extension/a.js": .file(Array("old".utf8)), "extension/b.js": .file(Array("b".utf8))],
            newCore: [file("extension/a.js", "new"), file("extension/b.js", "b")], appFiles: [],
            record: record("0.1.0", []))
        #expect(plan.edited == ["extension/a.js"])
        #expect(plan.unchanged == ["extension/b.js"])
        #expect(
            plan.summary(project: "/p", dryRun: true).first?.hasPrefix(
                "would upgrade /p from an ExtensionBridge before") == true)
    }
}
