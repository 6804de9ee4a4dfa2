import BridgeJSON
import Testing

@testable import BridgeRun

/// A recorded remote debugging conversation with Firefox ESR 153, replayed (trimmed to
/// the fields read).
@Suite struct FirefoxDebuggerTests {
    static let uuid = "28089bdd-a6f8-4d74-9d73-7077bf648e43"
    static let base = "moz-extension://\(uuid)/"

    func debugger() -> FirefoxDebugger {
        FirefoxDebugger(
            addonID: "probe@example.org", uuid: Self.uuid, extensionFolder: "/src/extension",
            roles: ExtensionRoles(manifest: [
                "background": ["scripts": ["bg.js"]], "action": ["default_popup": "popup.html"],
                "content_scripts": [["js": ["cs.js"]]],
            ]))
    }

    func sent(_ effects: [DebuggerEffect]) -> [JSONValue] {
        effects.compactMap { if case .send(let message) = $0 { return message } else { return nil } }
    }

    /// Greeting, root, install, add-on list, process, watcher: what a start sends and when it is ready.
    @Test func theStart_installsTheAddOnAndWatchesEveryProcesssConsole() {
        let d = debugger()
        #expect(d.start().isEmpty)
        let greeting = d.handle(["from": "root", "applicationType": "browser", "traits": [:]])
        #expect(sent(greeting) == [["to": "root", "type": "getRoot"]])
        let root = d.handle(["from": "root", "addonsActor": "conn0.addons2"])
        #expect(
            sent(root) == [
                ["to": "conn0.addons2", "type": "installTemporaryAddon", "addonPath": "/src/extension"],
                ["to": "root", "type": "getProcess", "id": 0],
            ])
        let installed = d.handle(["from": "conn0.addons2", "addon": ["id": "probe@example.org", "actor": false]])
        #expect(sent(installed) == [["to": "root", "type": "listAddons"]])
        // Replies from one actor come in the order of its requests: getProcess, then listAddons.
        let process = d.handle(["from": "root", "processDescriptor": ["actor": "conn0.process18"]])
        #expect(sent(process).first?["type"] == "getWatcher")
        let listed = d.handle([
            "from": "root",
            "addons": [["id": "other@x", "actor": "a1"], ["id": "probe@example.org", "actor": "a15"]],
        ])
        #expect(listed == [.ready])
        let watcher = d.handle(["from": "conn0.process18", "actor": "conn0.watcher20"])
        #expect(sent(watcher).map { $0["type"] } == ["watchTargets", "watchTargets", "watchTargets", "watchResources"])
    }

    @Test func aRefusedInstall_saysWhy() {
        let d = debugger()
        _ = d.handle(["from": "root", "applicationType": "browser"])
        _ = d.handle(["from": "root", "addonsActor": "add"])
        let refused = d.handle(["from": "add", "error": "unknownError", "message": "manifest.json is not JSON"])
        #expect(refused == [.problem("Firefox did not install the extension: unknownError: manifest.json is not JSON")])
    }

    @Test func consoleLines_areOursByTheirURL_andTaggedByTheirDocument() {
        let d = debugger()
        _ = d.handle([
            "type": "target-available-form",
            "target": ["innerWindowId": 12_884_901_889, "url": "http://127.0.0.1:46203/index.html"],
        ])
        _ = d.handle([
            "type": "target-available-form",
            "target": ["innerWindowId": 7, "url": .string(Self.base + "_generated_background_page.html")],
        ])
        let effects = d.handle([
            "type": "resources-available-array",
            "array": [
                [
                    "console-message",
                    [
                        [
                            "arguments": ["cs console error"], "filename": .string(Self.base + "cs.js"),
                            "lineNumber": 1,
                            "level": "error", "innerWindowID": 12_884_901_889,
                        ],
                        [
                            "arguments": ["page own error"], "filename": "http://127.0.0.1:46203/index.html",
                            "lineNumber": 1, "level": "error", "innerWindowID": 12_884_901_889,
                        ],
                    ],
                ],
                [
                    "error-message",
                    [
                        [
                            "pageError": [
                                "errorMessage": "Error: bg uncaught", "sourceName": .string(Self.base + "bg.js"),
                                "lineNumber": 3, "category": "content javascript", "innerWindowID": 7, "error": true,
                                "warning": false,
                            ]
                        ]
                    ],
                ],
            ],
        ])
        #expect(
            effects == [
                .console(
                    ConsoleMessage(
                        origin: .content(page: "http://127.0.0.1:46203/index.html"), kind: .error,
                        text: "cs console error", location: "cs.js:1")),
                .console(
                    ConsoleMessage(
                        origin: .background, kind: .uncaught, text: "Error: bg uncaught", location: "bg.js:3")),
            ])
    }

    @Test func argumentsThatAreNotStrings_areShownAsFirefoxDescribesThem() {
        #expect(FirefoxDebugger.text(of: 42) == "42")
        #expect(FirefoxDebugger.text(of: ["type": "undefined"]) == "undefined")
        #expect(FirefoxDebugger.text(of: ["type": "longString", "initial": "abc"]) == "abc…")
        #expect(
            FirefoxDebugger.text(of: [
                "type": "object", "class": "Error", "preview": ["kind": "Error", "name": "TypeError", "message": "x"],
            ])
                == "TypeError: x")
        #expect(FirefoxDebugger.text(of: ["type": "object", "class": "Array"]) == "Array")
    }

    @Test func reload_reloadsTheAddOnThenEachWebTab() {
        let d = debugger()
        #expect(sent(d.reloadExtension()) == [["to": "root", "type": "listAddons"]])
        let listed = d.handle(["from": "root", "addons": [["id": "probe@example.org", "actor": "a15"]]])
        #expect(sent(listed) == [["to": "a15", "type": "reload"]])
        let reloaded = d.handle(["from": "a15", "addon": [:]])
        #expect(sent(reloaded) == [["to": "root", "type": "listTabs"]])
        let tabs = d.handle([
            "from": "root",
            "tabs": [["actor": "tab1", "url": "http://127.0.0.1:8000/"], ["actor": "tab2", "url": "about:blank"]],
        ])
        #expect(sent(tabs) == [["to": "tab1", "type": "reloadDescriptor", "bypassCache": false]])
        #expect(tabs.last == .reloaded(pages: 1))
    }

    @Test func open_navigatesTheSelectedTab() {
        let d = debugger()
        _ = d.open(url: "http://127.0.0.1:8000/")
        let tabs = d.handle([
            "from": "root", "tabs": [["actor": "t1", "selected": false], ["actor": "t2", "selected": true]],
        ])
        #expect(
            sent(tabs) == [["to": "t2", "type": "navigateTo", "url": "http://127.0.0.1:8000/", "waitForLoad": false]])
    }
}
