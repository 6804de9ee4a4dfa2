import BridgeJSON
import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

@Suite struct ExtensionIdentityTests {
    @Test func bundledExtension_idMatchesExtensionIdJSON() throws {
        let identity = try ExtensionIdentity.load(extensionDirectory: repositoryRoot + "/extension")
        let expected = try JSONParser.parse(FileSystem.readFile(repositoryRoot + "/extension/extension-id.json"))
        #expect(identity.chromiumIDs == [expected["chromium"]?.stringValue ?? ""])
        #expect(identity.firefoxIDs == [expected["firefox"]?.stringValue ?? ""])
        #expect(identity.chromiumOrigins == ["chrome-extension://\(identity.chromiumIDs[0])/"])
    }

    @Test func extraIds_goToTheRightFamily() throws {
        var identity = ExtensionIdentity(chromiumIDs: ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"], firefoxIDs: ["a@b"])
        try identity.add(["chrome-extension://bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/", "c@d", "a@b"])
        #expect(identity.chromiumIDs == ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"])
        #expect(identity.firefoxIDs == ["a@b", "c@d"])
    }

    /// `--extension-id` takes Chromium and Firefox ids only.
    @Test func extraIds_thatAreNeitherId_areRefusedWhole() {
        for bad in ["a@b\nallow = evil@x", "--help", "x y", "nothing", "a@b,c@d", "chrome-extension://short/", "a@"] {
            var identity = ExtensionIdentity(chromiumIDs: [], firefoxIDs: [])
            #expect(throws: InstallError.self, "\(bad)") { try identity.add(["ok@example.com", bad]) }
            #expect(identity.firefoxIDs.isEmpty)
        }
    }

    @Test func missingManifest_saysWhatToPass() {
        #expect {
            try ExtensionIdentity.load(extensionDirectory: "/nonexistent")
        } throws: { error in
            (error as? InstallError)?.description.contains("--extension-dir") == true
        }
    }
}
