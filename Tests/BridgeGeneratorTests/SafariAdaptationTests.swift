import BridgeJSON
import Testing

@testable import BridgeGenerator

/// What the import makes of a manifest: Manifest V2 kept for Firefox with a Manifest V3 derived
/// for Chromium, the Apple-only values Chromium refuses, the service worker beside the background's
/// URLs, the page globals a worker lacks, the pages that need the shim.
@Suite struct SafariAdaptationTests {
    /// A Manifest V2 Safari extension, as the corpus has them: a browser_action popup, a background
    /// page's worth of scripts, host patterns among the permissions, MV2's string CSP and resources.
    static let manifestV2 = """
        {
            "manifest_version": 2, "name": "Linker", "version": "1.0",
            "background": {"scripts": ["background.js"], "persistent": false},
            "browser_action": {"default_popup": "popup.html", "default_icon": "images/icon.png", "browser_style": true},
            "content_scripts": [{"js": ["content.js"], "matches": ["*://*/*"]}],
            "permissions": ["storage", "tabs", "<all_urls>", "https://api.example/*", "webRequestBlocking"],
            "optional_permissions": ["http://*/*"],
            "content_security_policy": "script-src 'self' https://cdn.example; object-src 'self'",
            "web_accessible_resources": ["images/icon.png"],
            "applications": {"gecko": {"id": "old@example.com", "strict_min_version": "91.0"}},
            "commands": {"go": {"suggested_key": {"default": "Alt+Shift+G", "ios": "Alt+Shift+G"}},
                         "_execute_browser_action": {"suggested_key": {"default": "Alt+Shift+P"}}},
        }
        """
    static let files: [String: String] = [
        "manifest.json": manifestV2,
        "background.js":
            "chrome.browserAction.setBadgeText({text: '1'});\nchrome.tabs.executeScript({file: 'inject.js'});\n",
        "content.js": "", "inject.js": "", "images/icon.png": "png",
        "popup.html": "<script src=\"popup.js\"></script>",
        "popup.js": "browser.runtime.sendNativeMessage({request: 'getFormats'}).then(() => {});",
    ]

    @Test func manifestV2_staysManifestV2ForFirefox_withWhatTheHostNeeds() throws {
        let imported = try SafariFixture.imported(Self.files)
        let firefox = try #require(imported.manifest())
        #expect(firefox["manifest_version"] == 2)
        #expect(firefox["browser_action"]?["default_popup"] == "bridge-compat-popup.html")
        #expect(firefox["browser_action"]?["browser_style"] == true, "Firefox's own key kept")
        #expect(
            firefox["background"] == [
                "scripts": ["bridge-compat/safari-shim.js", "background.js"], "persistent": false,
            ])
        #expect(
            firefox["browser_specific_settings"]?["gecko"] == [
                "id": "hellosafari@example.com", "strict_min_version": "91.0",
            ])
        #expect(firefox["applications"] == nil, "merged into browser_specific_settings")
        #expect(firefox["content_security_policy"] == "script-src 'self' https://cdn.example; object-src 'self'")
        #expect(firefox["commands"]?["go"]?["suggested_key"]?["ios"] == "Alt+Shift+G", "Firefox ignores it: as is")
        #expect(imported.report.changed("Manifest V2: Firefox runs it as Safari does"))
    }

    @Test func manifestV2_getsADerivedManifestV3ForChromium_inItsOwnFolderOfLinks() throws {
        let imported = try SafariFixture.imported(Self.files)
        let chromium = try #require(imported.chromium)
        #expect(chromium["manifest_version"] == 3)
        #expect(chromium["action"] == ["default_popup": "bridge-compat-popup.html", "default_icon": "images/icon.png"])
        #expect(chromium["browser_action"] == nil && chromium["browser_specific_settings"] == nil)
        #expect(chromium["background"] == ["service_worker": "bridge-compat-service-worker.js"])
        #expect(chromium["permissions"] == ["storage", "tabs", "nativeMessaging", "scripting"])
        #expect(chromium["host_permissions"] == ["<all_urls>", "https://api.example/*"])
        #expect(chromium["optional_host_permissions"] == ["http://*/*"] && chromium["optional_permissions"] == [])
        #expect(chromium["content_security_policy"] == ["extension_pages": "script-src 'self'; object-src 'self'"])
        #expect(
            chromium["web_accessible_resources"] == [["resources": ["images/icon.png"], "matches": ["<all_urls>"]]])
        #expect(chromium["commands"]?["go"]?["suggested_key"] == ["default": "Alt+Shift+G"])
        #expect(chromium["commands"]?["_execute_action"]?["suggested_key"] == ["default": "Alt+Shift+P"])
        #expect(chromium["commands"]?["_execute_browser_action"] == nil)
        #expect(chromium["key"] == .string(SafariFixture.key.manifestKey), "the same id in both browsers")
        let links = imported.projectFiles.filter { $0.linkTarget != nil }.map { "\($0.path) -> \($0.linkTarget ?? "")" }
        #expect(links.contains("extension-chromium/bridge-compat -> ../extension/bridge-compat"))
        #expect(links.contains("extension-chromium/images -> ../extension/images"))
        #expect(links.contains("extension-chromium/popup.js -> ../extension/popup.js"))
        #expect(!links.contains { $0.hasPrefix("extension-chromium/manifest.json") })
        #expect(imported.findings("webRequestBlocking").first?.equivalent == .no)
        #expect(
            imported.findings("content_security_policy").first?.advice.contains("script-src https://cdn.example")
                == true)
    }

    @Test func manifestV2_bridgeJSONNamesChromiumsManifest_forPackAndInstall() throws {
        let (files, _) = try SafariFixture.project(Self.files)
        let bridge = try JSONParser.parse(try #require(files.first { $0.path == "bridge.json" }).bytes)
        #expect(bridge["extension"]?["chromiumManifest"] == "extension-chromium/manifest.json")
        #expect(bridge["extension"]?["folder"] == "extension")
        #expect(files.contains { $0.path == "extension-chromium/manifest.json" && $0.linkTarget == nil })
        let (v3, _) = try SafariFixture.project([
            "manifest.json": #"{"manifest_version": 3, "name": "M", "version": "1"}"#
        ])
        let plain = try JSONParser.parse(try #require(v3.first { $0.path == "bridge.json" }).bytes)
        #expect(plain["extension"]?["chromiumManifest"] == nil)
    }

    @Test func manifestV3_isOneManifest_withWhatChromiumRefusesDropped() throws {
        let imported = try SafariFixture.imported([
            "manifest.json": """
            {"manifest_version": 3, "name": "Freedirect", "version": "1",
             "background": {"service_worker": "js/background.js"},
             "commands": {"a": {"suggested_key": {"default": "Alt+R", "mac": "Alt+R", "ios": "Alt+R"}}},
             "content_security_policy": {"extension_pages": "script-src 'self'; script-src-elem 'self' 'unsafe-inline' https://x.example/; img-src *"}}
            """,
            "js/background.js": "chrome.action.setIcon({path: 'images/on.png'});\nimportScripts('lib.js');\n",
            "js/lib.js": "",
        ])
        #expect(imported.chromium == nil && imported.projectFiles.isEmpty)
        let manifest = try #require(imported.manifest())
        #expect(manifest["commands"]?["a"]?["suggested_key"] == ["default": "Alt+R", "mac": "Alt+R"])
        #expect(imported.report.changed("dropped the shortcut platform ios"))
        #expect(
            manifest["content_security_policy"]?["extension_pages"]
                == "script-src 'self'; script-src-elem 'self'; img-src *", "other directives kept")
        // The worker sits where the author's service worker did: its relative URLs resolve as in Safari.
        #expect(manifest["background"]?["service_worker"] == "js/bridge-compat-service-worker.js")
        let worker = try #require(imported.text("js/bridge-compat-service-worker.js"))
        #expect(worker.contains("\"/bridge-compat/safari-shim.js\",\n  \"/js/background.js\","))
        // Firefox's page runs what the worker imports (relative to the worker) before it.
        #expect(
            manifest["background"]?["scripts"] == ["bridge-compat/safari-shim.js", "js/lib.js", "js/background.js"])
        #expect(imported.findings("importScripts in the service worker").first?.file == "js/background.js")
    }

    @Test func aServiceWorkerBesideScripts_isWhatChromiumRuns_theScriptsWhatFirefoxRuns() throws {
        let imported = try SafariFixture.imported([
            "manifest.json":
                #"{"manifest_version": 3, "name": "B", "version": "1", "background": {"service_worker": "sw.js", "scripts": ["page.js"]}}"#,
            "sw.js": "", "page.js": "",
        ])
        #expect(imported.manifest()?["background"]?["scripts"] == ["bridge-compat/safari-shim.js", "page.js"])
        let worker = try #require(imported.text("bridge-compat-service-worker.js"))
        #expect(worker.contains("\"/sw.js\"") && !worker.contains("page.js"))
    }

    @Test func aBackgroundPage_isWrappedForFirefox_andItsScriptsAreChromiumsWorker() throws {
        let imported = try SafariFixture.imported([
            "manifest.json":
                #"{"manifest_version": 2, "name": "P", "version": "1", "background": {"page": "bg/bg.html"}}"#,
            "bg/bg.html": "<script src=\"a.js\"></script><script src=\"../b.js\"></script>", "bg/a.js": "", "b.js": "",
        ])
        #expect(imported.manifest()?["background"] == ["page": "bg/bridge-compat-bg.html"])
        let wrapper = try #require(imported.text("bg/bridge-compat-bg.html"))
        #expect(wrapper.contains("<script src=\"/bridge-compat/safari-shim.js\"></script>"))
        #expect(wrapper.contains("data-page=\"bg.html\""))
        #expect(imported.chromium?["background"] == ["service_worker": "bg/bridge-compat-service-worker.js"])
        #expect(
            try #require(imported.text("bg/bridge-compat-service-worker.js")).contains("\"/bg/a.js\",\n  \"/b.js\","))
    }

    @Test func pagesGetTheShim_onlyWhenTheirScriptsNeedIt() throws {
        let imported = try SafariFixture.imported([
            "manifest.json": """
            {"manifest_version": 3, "name": "P", "version": "1", "action": {"default_popup": "popup.html"},
             "options_ui": {"page": "options/options.html"}}
            """,
            "popup.html": "<script type=module src=popup.js></script>", "popup.js": "import './send.js';",
            "send.js": "export const s = () => browser.runtime.sendNativeMessage({message: 'x'});",
            "options/options.html": "<script src=options.js></script>",
            "options/options.js": "browser.storage.local.get('a');",
        ])
        let manifest = try #require(imported.manifest())
        #expect(manifest["action"]?["default_popup"] == "bridge-compat-popup.html", "a module it imports sends")
        #expect(manifest["options_ui"]?["page"] == "options/options.html", "nothing there needs the shim")
        #expect(imported.findings("browser.runtime.sendNativeMessage in a page").first?.equivalent == .yes)
    }

    @Test func theBackgroundsPageGlobals_areStoodInForOrReported_withFileAndLine() throws {
        let imported = try SafariFixture.imported([
            "manifest.json":
                #"{"manifest_version": 3, "name": "W", "version": "1", "background": {"scripts": ["bg.js"], "type": "module"}}"#,
            "bg.js": "import { wide } from './utils.js';\nlocalStorage.setItem('a', 1);\nconst o = {document: 1};\n",
            "utils.js": "export const wide = window.matchMedia('(min-width: 9px)').matches;\n",
        ])
        let worker = try #require(imported.text("bridge-compat-service-worker.js"))
        #expect(
            worker.contains(
                "import \"/bridge-compat/safari-shim.js\";\nimport \"/bridge-compat/worker-globals.js\";\nimport \"/bg.js\";"
            ))
        let window = try #require(imported.findings("window in the background").first)
        #expect(window.file == "utils.js" && window.line == 1 && window.equivalent == .differs)
        let storage = try #require(imported.findings("localStorage in the background").first)
        #expect(storage.file == "bg.js" && storage.line == 2 && storage.equivalent == .no)
        #expect(imported.findings("document in the background").isEmpty, "an object key is not the global")
        // Code that tests for window takes its own way in a worker: no stand-in.
        let tested = try SafariFixture.imported([
            "manifest.json":
                #"{"manifest_version": 3, "name": "W", "version": "1", "background": {"scripts": ["bg.js"]}}"#,
            "bg.js": "if (typeof window !== 'undefined') { window.x = 1 }",
        ])
        #expect(!(tested.text("bridge-compat-service-worker.js") ?? "").contains("worker-globals"))
        #expect(tested.findings("window in the background").first?.equivalent == .no)
    }

    @Test func whatChromiumRefusesToLoad_missingIconsAndLocalesWithoutDefault_isMended() throws {
        let imported = try SafariFixture.imported([
            "manifest.json": """
            {"manifest_version": 3, "name": "__MSG_name__", "version": "1",
             "icons": {"48": "images/48.png", "96": "images/gone.png"}, "action": {"default_icon": "images/gone.png"}}
            """,
            "images/48.png": "png", "_locales/de/messages.json": "{}", "_locales/en/messages.json": "{}",
        ])
        let manifest = try #require(imported.manifest())
        #expect(manifest["icons"] == ["48": "images/48.png"])
        #expect(manifest["action"] == [:])
        #expect(manifest["default_locale"] == "en")
        #expect(imported.report.changed("left out the missing icon images/gone.png"))
        #expect(imported.findings("missing file images/gone.png").count == 1, "and reported as missing")
    }

    @Test func svgIcons_areReported_forTheManifestAndForSetIcon() throws {
        let imported = try SafariFixture.imported([
            "manifest.json":
                #"{"manifest_version": 3, "name": "S", "version": "1", "icons": {"48": "i.svg"}, "background": {"scripts": ["bg.js"]}}"#,
            "i.svg": "<svg/>", "bg.js": "\nbrowser.action.setIcon({path: './images/off.svg'});",
        ])
        #expect(imported.findings("SVG icons").first?.advice.contains("i.svg") == true)
        let call = try #require(imported.findings("action.setIcon with an SVG").first)
        #expect(call.file == "bg.js" && call.line == 2)
    }
}
