import BridgeJSON
import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

@Suite struct HostManifestTests {
    @Test(arguments: ["org.extensionbridge.host", "a", "a_b.c9"])
    func validNames(name: String) throws { try HostManifest.validate(name: name) }

    @Test(arguments: ["", ".a", "a.", "a..b", "Org.x", "a-b", "a/b", "a b"])
    func invalidNames(name: String) {
        #expect(throws: InstallError.invalidHostName(name)) { try HostManifest.validate(name: name) }
    }

    @Test(arguments: [BrowserFamily.chromium, .firefox])
    func rendering_matchesTheCommittedTemplate(family: BrowserFamily) throws {
        let template = try String(
            contentsOfFile: repositoryRoot + "/manifests/\(family.rawValue)-host.json.in", encoding: .utf8)
        let rendered =
            template.replacingOccurrences(of: "@HOST_NAME@", with: "org.extensionbridge.host")
            .replacingOccurrences(of: "@HOST_PATH@", with: "/opt/eb/extension-bridge-host")
            .replacingOccurrences(of: "@CHROMIUM_ID@", with: "honlgoealnaplikdeeidpcknncfcnfmo")
            .replacingOccurrences(of: "@FIREFOX_ID@", with: "extension-bridge@extensionbridge.org")
        let allowed =
            family == .chromium
            ? ["chrome-extension://honlgoealnaplikdeeidpcknncfcnfmo/"] : ["extension-bridge@extensionbridge.org"]
        let manifest = HostManifest(
            name: "org.extensionbridge.host", path: "/opt/eb/extension-bridge-host", family: family, allowed: allowed)
        #expect(String(decoding: manifest.bytes, as: UTF8.self) == rendered)
    }
}
