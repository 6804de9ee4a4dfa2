import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

/// `ToolLayout`: the host and extension an installed CLI finds, in the layouts install.sh and the
/// Debian package make.
@Suite struct ToolLayoutTests {
    @Test func theHost_isLookedForBesideTheCLI_thenInTheDebianLayout() {
        #expect(
            ToolLayout.hostCandidates(executable: "/usr/bin/extension-bridge") == [
                "/usr/bin/extension-bridge-host", "/usr/lib/extension-bridge/extension-bridge-host",
            ])
    }

    @Test func theInstalledHost_isTheFirstExecutableCandidate() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let cli = tmp.path + "/usr/bin/extension-bridge"
        #expect(ToolLayout.installedHost(executable: cli) == nil)
        #expect(ToolLayout.installedHost(executable: nil) == nil)
        try FileManager.default.createDirectory(
            atPath: tmp.path + "/usr/lib/extension-bridge", withIntermediateDirectories: true)
        let packaged = tmp.path + "/usr/lib/extension-bridge/extension-bridge-host"
        try FileSystem.writeAtomically(packaged, utf8: "#!/bin/sh\n", permissions: 0o755)
        #expect(ToolLayout.installedHost(executable: cli) == packaged)
        // Under a staging root the candidates are looked for there, and named without it.
        #expect(
            ToolLayout.installedHost(executable: "/usr/bin/extension-bridge", root: tmp.path)
                == packaged
                .replacingOccurrences(of: tmp.path, with: ""))
    }

    @Test func theExtension_isTheInstalledCopy_thenTheCurrentFolders() throws {
        #expect(
            ToolLayout.extensionFolderCandidates(executable: "/home/u/.local/bin/extension-bridge") == [
                "/home/u/.local/share/extension-bridge/extension", "extension",
            ])
        #expect(ToolLayout.extensionFolderCandidates(executable: nil) == ["extension"])
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let with = tmp.path + "/with"
        try FileManager.default.createDirectory(atPath: with, withIntermediateDirectories: true)
        try FileSystem.writeAtomically(with + "/manifest.json", utf8: "{}", permissions: 0o644)
        #expect(ToolLayout.firstExtensionFolder([tmp.path + "/without", with]) == with)
        #expect(ToolLayout.firstExtensionFolder([tmp.path + "/without"]) == nil)
    }

    @Test func aProjectScript_isNamedOnlyWhenItIsThere() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let project = tmp.path + "/my project"
        try FileManager.default.createDirectory(atPath: project + "/scripts", withIntermediateDirectories: true)
        #expect(ToolLayout.projectScript("install.sh", besides: project + "/bridge.json") == nil)
        try FileSystem.writeAtomically(project + "/scripts/install.sh", utf8: "#!/bin/sh\n", permissions: 0o755)
        #expect(
            ToolLayout.projectScript("install.sh", besides: project + "/bridge.json")
                == "cd '\(project)' && scripts/install.sh")
    }
}

extension ToolLayoutTests {
    @Test func aToolBuiltInACheckout_findsThatCheckoutsExtension() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let checkout = tmp.path + "/my checkout"
        try FileManager.default.createDirectory(atPath: checkout + "/extension", withIntermediateDirectories: true)
        let built = checkout + "/.build/x86_64-unknown-linux-gnu/debug/extension-bridge"
        #expect(ToolLayout.checkoutExtensionFolder(executable: built) == nil)
        try FileSystem.writeAtomically(checkout + "/extension/manifest.json", utf8: "{}", permissions: 0o644)
        #expect(ToolLayout.checkoutExtensionFolder(executable: built) == checkout + "/extension")
        #expect(ToolLayout.checkoutExtensionFolder(executable: "/usr/bin/extension-bridge") == nil)
        #expect(ToolLayout.checkoutExtensionFolder(executable: nil) == nil)
    }
}
