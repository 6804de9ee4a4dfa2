import BridgeJSON
import Testing

@testable import BridgeRun

/// A recorded DevTools conversation, replayed: what Chromium 156 sent when the built-in
/// extension's worker started, a page loaded with its content script, and the extension
/// was reloaded (trimmed to the fields read).
@Suite struct ChromiumDebuggerTests {
    static let id = "honlgoealnaplikdeeidpcknncfcnfmo"
    static let origin = "chrome-extension://\(id)"

    func debugger() -> ChromiumDebugger {
        ChromiumDebugger(
            extensionID: Self.id, extensionFolder: "/src/extension",
            roles: ExtensionRoles(background: ["background/background.js"], popup: "popup/popup.html"))
    }

    func sent(_ effects: [DebuggerEffect]) -> [JSONValue] {
        effects.compactMap { if case .send(let message) = $0 { return message } else { return nil } }
    }

    func attached(_ session: String, type: String, url: String) -> JSONValue {
        [
            "method": "Target.attachedToTarget",
            "params": [
                "sessionId": .string(session), "waitingForDebugger": true,
                "targetInfo": ["type": .string(type), "url": .string(url), "targetId": .string("T" + session)],
            ],
        ]
    }

    func context(_ session: String, id: Int, origin: String, type: String) -> JSONValue {
        [
            "method": "Runtime.executionContextCreated", "sessionId": .string(session),
            "params": ["context": ["id": .int(id), "origin": .string(origin), "auxData": ["type": .string(type)]]],
        ]
    }

    @Test func start_autoAttachesPausedToPagesAndWorkers() {
        let messages = sent(debugger().start())
        #expect(messages.map { $0["method"] } == ["Target.setDiscoverTargets", "Target.setAutoAttach"])
        let message = messages.last
        #expect(message?["params"]?["waitForDebuggerOnStart"] == true)
        #expect(message?["params"]?["flatten"] == true)
        // Pages (content scripts, extension pages), workers (the background), and "other": the popup.
        let types = message?["params"]?["filter"]?.arrayValue?.compactMap { $0["type"]?.stringValue }
        #expect(types == ["page", "service_worker", "other"])
    }

    @Test func ourWorker_isEnabledResumedAndMeansReady_anotherIsLetGo() {
        let d = debugger()
        let ours = d.handle(attached("S1", type: "service_worker", url: "\(Self.origin)/background/background.js"))
        #expect(sent(ours).map { $0["method"] } == ["Runtime.enable", "Runtime.runIfWaitingForDebugger"])
        #expect(ours.contains(.ready))
        let other = d.handle(attached("S2", type: "service_worker", url: "https://site.example/sw.js"))
        #expect(sent(other).map { $0["method"] } == ["Runtime.runIfWaitingForDebugger", "Target.detachFromTarget"])
        #expect(!other.contains(.ready))
    }

    @Test func aContentScriptsError_isTaggedWithThePage_andThePagesOwnIsNot() {
        let d = debugger()
        _ = d.handle(attached("P", type: "page", url: "http://127.0.0.1:8000/index.html"))
        _ = d.handle(context("P", id: 1, origin: "http://127.0.0.1:8000", type: "default"))
        _ = d.handle(context("P", id: 2, origin: Self.origin, type: "isolated"))
        let own = d.handle([
            "method": "Runtime.consoleAPICalled", "sessionId": "P",
            "params": ["type": "error", "executionContextId": 1, "args": [["type": "string", "value": "page's"]]],
        ])
        #expect(own.isEmpty)
        let ours = d.handle([
            "method": "Runtime.exceptionThrown", "sessionId": "P",
            "params": [
                "exceptionDetails": [
                    "executionContextId": 2, "text": "Uncaught",
                    "exception": ["description": "Error: boom\n    at content.js:3:9"],
                    "stackTrace": [
                        "callFrames": [["url": .string("\(Self.origin)/content/content.js"), "lineNumber": 2]]
                    ],
                ]
            ],
        ])
        #expect(
            ours == [
                .console(
                    ConsoleMessage(
                        origin: .content(page: "http://127.0.0.1:8000/index.html"), kind: .uncaught,
                        text: "Error: boom",
                        location: "content/content.js:3"))
            ])
    }

    @Test func theWorkersAndThePopupsConsole_areTaggedBackgroundAndPopup() {
        let d = debugger()
        _ = d.handle(attached("W", type: "service_worker", url: "\(Self.origin)/background/background.js"))
        _ = d.handle(context("W", id: 1, origin: "\(Self.origin)/background/background.js", type: ""))
        _ = d.handle(attached("U", type: "page", url: "\(Self.origin)/popup/popup.html"))
        _ = d.handle(context("U", id: 5, origin: Self.origin, type: "default"))
        let worker = d.handle([
            "method": "Runtime.consoleAPICalled", "sessionId": "W",
            "params": [
                "type": "warning", "executionContextId": 1,
                "args": [
                    ["type": "string", "value": "slow"], ["type": "number", "value": 42], ["type": "undefined"],
                ],
            ],
        ])
        #expect(worker == [.console(ConsoleMessage(origin: .background, kind: .warn, text: "slow 42 undefined"))])
        let popup = d.handle([
            "method": "Runtime.consoleAPICalled", "sessionId": "U",
            "params": [
                "type": "error", "executionContextId": 5,
                "args": [["type": "object", "subtype": "error", "description": "TypeError: x is null"]],
            ],
        ])
        #expect(popup == [.console(ConsoleMessage(origin: .popup, kind: .error, text: "TypeError: x is null"))])
    }

    @Test func aTabThatNavigated_isTaggedAndReloadedByItsNewURL() {
        let d = debugger()
        _ = d.handle(attached("P", type: "page", url: "about:blank"))
        _ = d.handle([
            "method": "Target.targetInfoChanged",
            "params": ["targetInfo": ["targetId": "TP", "type": "page", "url": "http://127.0.0.1:8000/"]],
        ])
        _ = d.handle(context("P", id: 3, origin: Self.origin, type: "isolated"))
        let logged = d.handle([
            "method": "Runtime.consoleAPICalled", "sessionId": "P",
            "params": ["type": "error", "executionContextId": 3, "args": [["type": "string", "value": "x"]]],
        ])
        #expect(
            logged == [
                .console(ConsoleMessage(origin: .content(page: "http://127.0.0.1:8000/"), kind: .error, text: "x"))
            ])
        let id = sent(d.reloadExtension()).first?["id"] ?? .null
        #expect(d.handle(["id": id, "result": [:]]).last == .reloaded(pages: 1))
    }

    /// Chromium 156 opens an action's popup as an "other" target without a URL, which then
    /// becomes a page of ours (recorded with `chrome.action.openPopup()`).
    @Test func aPopupOpenedAsAnOtherTarget_isTaggedPopup() {
        let d = debugger()
        #expect(
            sent(d.handle(attached("O", type: "other", url: ""))).map { $0["method"] } == [
                "Runtime.enable", "Runtime.runIfWaitingForDebugger",
            ])
        _ = d.handle([
            "method": "Target.targetInfoChanged",
            "params": [
                "targetInfo": ["targetId": "TO", "type": "page", "url": .string("\(Self.origin)/popup/popup.html")]
            ],
        ])
        _ = d.handle(context("O", id: 1, origin: Self.origin, type: "default"))
        let logged = d.handle([
            "method": "Runtime.consoleAPICalled", "sessionId": "O",
            "params": ["type": "error", "executionContextId": 1, "args": [["type": "string", "value": "from popup"]]],
        ])
        #expect(logged == [.console(ConsoleMessage(origin: .popup, kind: .error, text: "from popup"))])
    }

    @Test func reload_loadsTheFolderAgain_thenReloadsTheWebPages() {
        let d = debugger()
        _ = d.handle(attached("P", type: "page", url: "http://127.0.0.1:8000/"))
        _ = d.handle(attached("N", type: "page", url: "chrome://newtab/"))
        let request = sent(d.reloadExtension())
        #expect(request.first?["method"] == "Extensions.loadUnpacked")
        #expect(request.first?["params"]?["path"] == "/src/extension")
        let id = request.first?["id"] ?? .null
        let done = d.handle(["id": id, "result": ["id": .string(Self.id)]])
        #expect(sent(done).map { $0["method"] } == ["Page.reload"])
        #expect(sent(done).first?["sessionId"] == "P")
        #expect(done.last == .reloaded(pages: 1))
    }

    @Test func aRefusedReload_saysWhy() {
        let d = debugger()
        let id = sent(d.reloadExtension()).first?["id"] ?? .null
        let refused = d.handle(["id": id, "error": ["message": "Manifest file is invalid"]])
        #expect(refused == [.problem("the extension did not reload: Manifest file is invalid")])
    }

    @Test func open_navigatesTheBlankFirstTab() {
        let d = debugger()
        _ = d.handle(attached("B", type: "page", url: "about:blank"))
        let navigate = sent(d.open(url: "http://127.0.0.1:8000/"))
        #expect(navigate.first?["method"] == "Page.navigate")
        #expect(navigate.first?["sessionId"] == "B")
        #expect(sent(debugger().open(url: "http://x/")).first?["method"] == "Target.createTarget")
    }
}
