import BridgeSystem
import BrowserSupport
import TestSupport
import Testing

@testable import BridgeRun

/// The checkout these tests are in: Tests/BridgeRunTests/Project/ is three folders below it.
let repository = FileSystem.parentPath(FileSystem.parentPath(FileSystem.parentPath(FileSystem.parentPath(#filePath))))

@Suite struct RunProjectTests {
    @Test func theBuiltInBridge_isBuiltByTheScriptInstallShRuns() throws {
        let project = try RunProject.builtIn(source: repository)
        #expect(project.kind == .builtIn)
        #expect(project.chromiumID == "honlgoealnaplikdeeidpcknncfcnfmo")
        #expect(project.firefoxID == "extension-bridge@extensionbridge.org")
        let command = try #require(project.buildCommand(searchPath: nil))
        #expect(command.program == repository + "/scripts/release-build.sh")
        #expect(command.arguments == ["extension-bridge-host"])
    }

    @Test func aGeneratedProject_isBuiltAsItsInstallShDoes() throws {
        var description = BridgeDescription(
            name: "ReadLater", hostName: "com.example.readlater", group: "group.com.example.readlater",
            hostProduct: "readlater-host", version: "1.0.0", extensionFolder: "/p/extension",
            chromiumID: "abcdefghijklmnopabcdefghijklmnop", firefoxID: "readlater@example.com")
        description.features = []
        let project = RunProject.generated(description, path: "/p/bridge.json")
        #expect(project.folder == "/p")
        #expect(project.buildCommand(searchPath: "/nonexistent") == nil)
        #expect(HostBuild.projectCommand(product: "readlater-host").hasPrefix("swift build -c release"))
    }

    /// A Manifest V2 import: Firefox loads `extension/`, Chromium the folder of its own Manifest V3 manifest.
    @Test func anImportWithChromiumsOwnManifest_isLoadedFromItsFolderInChromiumOnly() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let json = """
            {"formatVersion": 1, "name": "Linker", "hostName": "com.example.linker", "group": "group.com.example.linker",
             "hostProduct": "linker-host", "version": "1.0.0",
             "extension": {"folder": "extension", "chromiumManifest": "extension-chromium/manifest.json",
                           "chromiumID": "abcdefghijklmnopabcdefghijklmnop", "firefoxID": "linker@example.com"}}
            """
        try FileSystem.writeAtomically(tmp.path + "/bridge.json", Array(json.utf8))
        let project = RunProject.generated(
            try BridgeDescription.load(tmp.path + "/bridge.json"), path: tmp.path + "/bridge.json")
        #expect(project.extensionFolder(for: .chromium) == tmp.path + "/extension-chromium")
        #expect(project.extensionFolder(for: .firefox) == tmp.path + "/extension")
        #expect(RunProject.generatedSample.extensionFolder(for: .chromium) == "/p/extension")
    }

    @Test func theHostsSources_leaveOutWhatTheHostDoesNotBuild() {
        let rule = RunProject.generatedSample.hostSources
        #expect(rule.includes("main.swift") && rule.includes("Package.resolved") && !rule.includes("app.js"))
        for folder in ["Tests", "Examples", "Fuzz", "Safari", "extension", ".build"] {
            #expect(rule.skippedFolders.contains(folder))
        }
        // The libraries a project carries are the host's sources too: an edit there rebuilds it.
        #expect(!rule.skippedFolders.contains("ExtensionBridge") && !rule.skippedFolders.contains("Sources"))
        let extensionRule = RunProject.generatedSample.extensionSources
        #expect(extensionRule.includes("content.js") && !extensionRule.includes("content.js~"))
        #expect(extensionRule.skippedFolders.contains("test"))
    }
}

extension RunProject {
    static let generatedSample = RunProject(
        kind: .generated, name: "ReadLater", folder: "/p", extensionFolder: "/p/extension",
        hostName: "com.example.readlater", hostProduct: "readlater-host", group: "group.com.example.readlater",
        chromiumID: "abcdefghijklmnopabcdefghijklmnop", firefoxID: "readlater@example.com")
}
