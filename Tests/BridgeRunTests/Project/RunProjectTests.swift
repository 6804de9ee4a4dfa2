import BridgeSystem
import BrowserSupport
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
