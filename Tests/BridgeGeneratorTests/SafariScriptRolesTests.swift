import BridgeJSON
import Testing

@testable import BridgeGenerator

/// Where each script runs, from the manifest, the pages and the imports.
@Suite struct SafariScriptRolesTests {
    func bytes(_ files: [String: String]) -> [String: [UInt8]] { files.mapValues { Array($0.utf8) } }

    @Test func backgroundContentPagesAndTheirModules_eachGetTheirRole() throws {
        let manifest = try JSONParser.parse(
            #"""
            {"background": {"scripts": ["background.js"], "type": "module"},
             "content_scripts": [{"js": ["content.js"]}, {"js": ["/page-world.js"], "world": "MAIN"}]}
            """#)
        let files = bytes([
            "background.js": "import { settings } from './utils.js';",
            "utils.js": "export const settings = window.matchMedia('(hover: hover)');",
            "popup.html": "<script type=\"module\" src=\"popup.js\"></script>",
            "popup.js": "import './utils.js'; import './localization.js';", "localization.js": "",
            "content.js": "", "page-world.js": "", "unused.js": "",
        ])
        let roles = SafariScriptRoles(manifest: manifest.objectValue ?? [:], files: files)
        #expect(roles.backgroundScripts == ["background.js"] && roles.backgroundIsModule)
        #expect(roles["utils.js"] == [.background, .page], "shared by the background and the popup")
        #expect(roles["localization.js"] == [.page])
        #expect(roles["content.js"] == [.content] && roles["page-world.js"] == [.mainWorld])
        #expect(roles["unused.js"].isEmpty)
    }

    @Test func aBackgroundPage_runsItsScripts_andAWorkerItsImportedScripts() throws {
        let page = try JSONParser.parse(#"{"background": {"page": "bg/background.html"}}"#)
        let pageFiles = bytes(["bg/background.html": "<script src=\"a.js\"></script><script src=\"/b.js\"></script>"])
        let roles = SafariScriptRoles(manifest: page.objectValue ?? [:], files: pageFiles)
        #expect(roles.backgroundScripts == ["bg/a.js", "b.js"] && roles.backgroundPage == "bg/background.html")
        let worker = try JSONParser.parse(#"{"background": {"service_worker": "js/sw.js"}}"#)
        let workerFiles = bytes(["js/sw.js": "importScripts('lib.js');", "js/lib.js": ""])
        let workerRoles = SafariScriptRoles(manifest: worker.objectValue ?? [:], files: workerFiles)
        #expect(workerRoles.serviceWorker == "js/sw.js" && workerRoles["js/lib.js"] == [.background])
    }
}
