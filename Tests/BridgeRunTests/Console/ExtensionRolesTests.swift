import BridgeJSON
import Testing

@testable import BridgeRun

@Suite struct ExtensionRolesTests {
    let manifest: JSONValue = [
        "background": ["service_worker": "background/background.js", "scripts": ["./background/background.js"]],
        "action": ["default_popup": "popup/popup.html"],
        "content_scripts": [["js": ["content/engine.js", "/content/content.js"], "matches": ["<all_urls>"]]],
    ]

    @Test func theManifest_namesEachFilesPart() {
        let roles = ExtensionRoles(manifest: manifest)
        #expect(roles.background.contains("background/background.js"))
        #expect(roles.popup == "popup/popup.html")
        #expect(roles.contentScripts == ["content/engine.js", "content/content.js"])
    }

    @Test func aDocument_isTheBackgroundThePopupOrAnotherPage() {
        let roles = ExtensionRoles(manifest: manifest)
        #expect(roles.origin(ofDocument: "_generated_background_page.html") == .background)
        #expect(roles.origin(ofDocument: "popup/popup.html?x=1") == .popup)
        #expect(roles.origin(ofDocument: "options/options.html") == .page(path: "options/options.html"))
    }

    @Test func aScriptWithoutItsDocument_isTaggedByTheManifest() {
        let roles = ExtensionRoles(manifest: manifest)
        #expect(roles.origin(ofScript: "content/content.js", page: "http://a/") == .content(page: "http://a/"))
        #expect(roles.origin(ofScript: "background/background.js", page: "") == .background)
    }

    @Test func aManifestV2BrowserAction_andAMissingManifest() {
        let roles = ExtensionRoles(manifest: ["browser_action": ["default_popup": "p.html"]])
        #expect(roles.popup == "p.html")
        #expect(ExtensionRoles.load(extensionFolder: "/nonexistent") == ExtensionRoles())
    }
}
