import Testing

@testable import BridgeGenerator

/// The tokens the import reads JavaScript as: names in comments, strings and regular expressions
/// are not calls; lines are counted through all of them.
@Suite struct JavaScriptTokensTests {
    func identifiers(_ text: String) -> [String] {
        JavaScriptTokens(text).tokens.filter { $0.kind == .identifier }.map(\.text)
    }

    @Test func commentsStringsAndRegularExpressions_hideTheirWords() {
        let text = """
            // browser.runtime.sendNativeMessage in a comment
            /* sendNativeMessage
               over lines */ const a = "sendNativeMessage", b = 'it\\'s', c = /sendNativeMessage\\/[/]x/g;
            const d = x / y / z; const t = `a ${ "sendNativeMessage" + `nested ${deep}` } b`;
            call(sendNativeMessage)
            """
        let tokens = JavaScriptTokens(text)
        #expect(
            identifiers(text) == [
                "const", "a", "b", "c", "const", "d", "x", "y", "z", "const", "t", "call", "sendNativeMessage",
            ])
        #expect(tokens.tokens.last { $0.kind == .identifier }?.line == 5)
        #expect(tokens.tokens.contains { $0.kind == .string && $0.text == "it's" })
        #expect(tokens.tokens.contains { $0.kind == .template }, "a template with substitutions has no known value")
    }

    @Test func optionalChaining_isMemberAccess_andArgumentsSplitAtTheTopLevel() {
        let tokens = JavaScriptTokens("api?.runtime.send(a, {b: [1, 2], c: f(3, 4)}, (x) => x);")
        #expect(tokens.isIdentifier(0, "api") && tokens.isPunctuation(1, "."))
        guard let open = tokens.tokens.firstIndex(where: { $0.text == "(" }) else {
            Issue.record("no call")
            return
        }
        #expect(tokens.arguments(at: open).count == 3)
    }

    @Test func malformedText_givesTokens_neverAFailure() {
        for text in ["\"unterminated", "`open ${", "/* open", "a / ", "/[/", "\u{0}\u{FF}"] {
            _ = JavaScriptTokens(text)
        }
        #expect(identifiers("f('a\nb') g").prefix(2) == ["f", "b"], "an unterminated string ends at its line")
    }
}
