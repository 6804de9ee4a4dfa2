import Testing

@testable import BridgeGenerator

/// The native messages found in an extension's scripts: every Safari form, through the extension's
/// own wrappers, named by the member its handler switched on.
@Suite struct SafariMessagesTests {
    func scan(_ files: [String: String]) -> [SafariMessages.Message] {
        SafariMessages.scan(files.sorted { $0.key < $1.key }.map { ($0.key, Array($0.value.utf8)) })
    }

    @Test func everySafariForm_givesItsMessage() {
        let messages = scan([
            "background.js": """
            browser.runtime.sendNativeMessage({ message: 'getInputSource' }, (response) => {});
            browser.runtime.sendNativeMessage('application.id', { type: "sync", payload }, function (r) {});
            chrome.runtime.sendNativeMessage(APP_ID, {"request": 'copy', title: t});
            // browser.runtime.sendNativeMessage({ message: 'inAComment' });
            const s = "browser.runtime.sendNativeMessage({ message: 'inAString' })";
            """
        ])
        #expect(messages.map(\.name) == ["getInputSource", "sync", "copy"])
        #expect(messages.map(\.key) == ["message", "type", "request"])
        #expect(messages[1].shape == "{type: \"sync\", payload}")
        #expect(messages[2].places == ["background.js:3"])
    }

    @Test func theExtensionsOwnWrappers_areFollowed_andTheirCallersNamed() {
        // As a real extension wraps it: a retry around a one-shot send, callers passing literals.
        let messages = scan([
            "background.js": """
            function sendOnce(message) {
              return new Promise(resolve => {
                try { api.runtime.sendNativeMessage(NATIVE_APP_ID, message, resolve) }
                catch (error) { api.runtime.sendNativeMessage(message, resolve) }
              })
            }
            async function sendNativeMessage(message) {
              for (const delay of [0, 500]) { const last = await sendOnce(message); if (last?.ok) return last }
            }
            const ask = (what) => sendNativeMessage({ type: what })
            const ping = async () => await sendNativeMessage({ type: 'ping', at: Date.now() })
            sendNativeMessage({ type: 'syncGet' })
            sendNativeMessage({ type: 'syncGet' })
            """
        ])
        #expect(messages.map(\.name) == ["ping", "syncGet", nil])
        #expect(messages[1].places == ["background.js:12", "background.js:13"])
        // `ask` names its message with its parameter: no name to find, and the report says why.
        #expect(messages[2].places == ["background.js:10"] && messages[2].why.contains("no member names it"))
        #expect(!messages.contains { $0.places.contains("background.js:3") }, "a wrapper's own send is its callers'")
    }

    @Test func aMessageBuiltInAVariableBeforeTheCall_isFound() {
        let messages = scan([
            "background.js": """
            const message = { message: 'old' };
            function ask() {
              let message = { message: "getSettings", id: 1 };
              browser.runtime.sendNativeMessage('application.id', message, (reply) => {});
            }
            """
        ])
        #expect(messages.map(\.name) == ["getSettings"], "the last assignment before the call")
        #expect(messages.first?.places == ["background.js:4"])
    }

    @Test func messagesWithoutAName_areListedWithWhy() {
        let messages = scan([
            "popup.js": """
            browser.runtime.sendNativeMessage("getStatus");
            browser.runtime.sendNativeMessage(built);
            browser.runtime.sendNativeMessage({ count: 3 });
            """
        ])
        #expect(messages.count == 3 && messages.allSatisfy { $0.name == nil })
        #expect(messages[0].why.contains("a string, not an object"))
        #expect(messages[1].why.contains("built elsewhere"))
        #expect(messages[2].why.contains("no member names it"))
    }
}
