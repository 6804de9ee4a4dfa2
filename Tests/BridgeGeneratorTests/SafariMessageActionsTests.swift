import Testing

@testable import BridgeGenerator

/// The Swift made for each message found: one action per name, registered, answering
/// `not_implemented`; whatever the names, the Swift stays valid.
@Suite struct SafariMessageActionsTests {
    let spec = SafariFixture.spec

    func message(_ name: String?, key: String = "type", places: [String] = ["background.js:1"])
        -> SafariMessages.Message
    {
        SafariMessages.Message(key: key, name: name, shape: "{\(key): \"\(name ?? "")\"}", places: places)
    }

    @Test func typeNames_areSwiftIdentifiers_andNeverCollide() {
        #expect(SafariMessageActions.typeName("getInputSource") == "GetInputSourceAction")
        #expect(SafariMessageActions.typeName("sync-put:now") == "SyncPutNowAction")
        #expect(SafariMessageActions.typeName("42") == "Message42Action")
        #expect(SafariMessageActions.typeName("\"; }\n") == "MessageAction")
        let assigned = SafariMessageActions.assigned(
            [message("appInfo"), message("app-info"), message("request:enabled_status", key: "message"), message(nil)],
            spec: spec)
        #expect(
            assigned.map(\.action) == [
                "Sources/HelloSafariActions/SafariMessages/AppInfoAction2.swift",
                "Sources/HelloSafariActions/SafariMessages/AppInfoAction3.swift", nil, nil,
            ])
        #expect(assigned[2].why.contains("the host answers it itself"))
    }

    @Test func theActions_areWrittenAndRegistered_inTheHostAndTheSafariHandler() throws {
        let (files, report) = try SafariFixture.project([
            "manifest.json":
                #"{"manifest_version": 3, "name": "M", "version": "1", "background": {"scripts": ["bg.js"]}}"#,
            "bg.js":
                "browser.runtime.sendNativeMessage({ type: 'syncGet' });\nbrowser.runtime.sendNativeMessage({ message: 'x\\u0000\\\"y' });\n",
        ])
        func text(_ path: String) -> String? {
            files.first { $0.path == path }.map { String(decoding: $0.bytes, as: UTF8.self) }
        }
        #expect(report.messages.map(\.name) == ["syncGet", "x\u{0}\"y"])
        let action = try #require(text("Sources/HelloSafariActions/SafariMessages/SyncGetAction.swift"))
        #expect(action.contains("public let name = \"syncGet\""))
        #expect(action.contains("public let messageKey: String? = \"type\""))
        #expect(
            action.contains(
                ".error(.notImplemented, \"syncGet is not implemented yet: write it in Sources/HelloSafariActions/SafariMessages/SyncGetAction.swift\")"
            ))
        let odd = try #require(text("Sources/HelloSafariActions/SafariMessages/XYAction.swift"))
        #expect(
            odd.contains("public let name = \"x\\u{0}\\\"y\""), "a name from the author's code is a literal, escaped")
        #expect(!odd.contains("\u{0}"))
        let registry = try #require(text("Sources/HelloSafariActions/SafariMessages/SafariMessages.swift"))
        #expect(registry.contains("SyncGetAction(),\n") && registry.contains("XYAction(),\n"))
        for path in [
            "Sources/hellosafari-host/main.swift", "Sources/HelloSafariSafari/SafariWebExtensionHandler.swift",
        ] {
            #expect(
                try #require(text(path)).contains("BuiltInActions.all + [AppInfoAction()] + SafariMessages.actions"),
                "\(path)")
        }
    }

    @Test func withoutMessages_theProjectIsAsBefore() throws {
        let (files, _) = try SafariFixture.project([
            "manifest.json": #"{"manifest_version": 3, "name": "M", "version": "1"}"#
        ])
        #expect(!files.contains { $0.path.contains("SafariMessages") })
        let main = try #require(files.first { $0.path == "Sources/hellosafari-host/main.swift" })
        #expect(!String(decoding: main.bytes, as: UTF8.self).contains("SafariMessages"))
    }
}
