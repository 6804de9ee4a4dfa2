/// The Safari APIs an imported extension may use, and what each becomes in
/// Chromium and Firefox with ExtensionBridge (docs/GENERATOR.md, "Porting a
/// Safari Web Extension", prints the same table).
public enum SafariAPI {
    /// Whether a Safari API has an equivalent here.
    public enum Equivalent: String, Equatable, Sendable {
        /// Works unchanged: the shim, a generated file or the host covers it.
        case yes
        /// Works, with a difference the author should know.
        case differs
        /// No equivalent: the author changes the code (or the file).
        case no
    }

    /// A difference found in the author's code or manifest.
    public struct Finding: Equatable, Sendable {
        public var file: String
        /// 1-based; 0 when it is about the file as a whole.
        public var line: Int
        public var api: String
        public var equivalent: Equivalent
        public var advice: String
    }

    /// Where a rule applies: any file (Swift too), any script, or code running in one of these places
    /// (a script can run in several; one nothing reaches counts as a page's).
    public enum Scope: Sendable { case any, script, background, content, page, swift }

    /// What a rule looks for in the tokens: a name, a property (`….name`), or `object.member`.
    public enum Pattern: Sendable {
        case name(String)
        case property(String)
        case member(String, String)
    }

    /// One row: what to look for, where it matters, and what to do.
    public struct Rule: Sendable {
        public var pattern: Pattern
        public var scope: Scope
        /// The API's name as the report shows it.
        public var api: String
        public var equivalent: Equivalent
        public var advice: String
    }

    /// The table, most specific first: a token matches at most one rule.
    public static let rules: [Rule] = [
        Rule(
            pattern: .name("SFSafariApplication"), scope: .any,
            api: "SFSafariApplication (dispatchMessage, showPreferences…)", equivalent: .no,
            advice:
                "the app cannot push a message into the extension; write the suite (SharedSuite) and let the extension "
                + "ask the host (getSettings) or listen for the pageState event on a connectNative port"),
        Rule(
            pattern: .name("SFSafariExtensionHandler"), scope: .any,
            api: "SFSafariExtensionHandler (Safari app extensions)",
            equivalent: .no, advice: "legacy Safari App Extensions have no equivalent; port them to a web extension"),
        Rule(
            pattern: .member("safari", "extension"), scope: .script, api: "safari.extension (Safari App Extension JS)",
            equivalent: .no, advice: "use browser.runtime.sendMessage to the background, which calls sendNativeMessage"),
        Rule(
            pattern: .member("safari", "self"), scope: .script, api: "safari.self (Safari App Extension JS)",
            equivalent: .no,
            advice: "use browser.runtime.onMessage / sendMessage"),
        Rule(
            pattern: .member("safari", "application"), scope: .script,
            api: "safari.application (Safari App Extension JS)",
            equivalent: .no, advice: "use browser.tabs and browser.windows"),
        Rule(
            pattern: .name("NSExtensionRequestHandling"), scope: .swift, api: "SafariWebExtensionHandler (Swift)",
            equivalent: .yes,
            advice:
                "the generated host answers request:enabled_status, and has an action for each native message found "
                + "(below) that answers not_implemented until you write it; this folder should be Xcode's Resources, "
                + "not the Swift target"),
        Rule(
            pattern: .name("sendNativeMessage"), scope: .content,
            api: "browser.runtime.sendNativeMessage in a content script",
            equivalent: .no,
            advice:
                "Chromium and Firefox let only extension pages and the background talk to a native host: send "
                + "browser.runtime.sendMessage to your background and call sendNativeMessage there"),
        Rule(
            pattern: .name("sendNativeMessage"), scope: .background,
            api: "browser.runtime.sendNativeMessage (background)",
            equivalent: .yes,
            advice:
                "the shim sends every Safari form to this bridge's host; a missing host gives the callback undefined "
                + "(runtime.lastError set) and rejects the promise, as Safari does"),
        Rule(
            pattern: .name("sendNativeMessage"), scope: .page, api: "browser.runtime.sendNativeMessage in a page",
            equivalent: .yes,
            advice:
                "the manifest names a generated page beside yours that loads the shim, then your page unchanged: "
                + "every Safari form reaches this bridge's host"),
        Rule(
            pattern: .property("connectNative"), scope: .script, api: "browser.runtime.connectNative",
            equivalent: .differs,
            advice:
                "the shim opens this bridge's host whatever app id is given; one host process serves the port for its "
                + "life (Safari hands each message to the handler); the host answers the same messages on it"),
        Rule(
            pattern: .property("getBackgroundPage"), scope: .script,
            api: "runtime.getBackgroundPage / extension.getBackgroundPage",
            equivalent: .no,
            advice: "Chromium's background is a service worker without a page (null there): exchange messages instead"),
        Rule(
            pattern: .member("tabs", "executeScript"), scope: .script, api: "tabs.executeScript (Manifest V2)",
            equivalent: .differs,
            advice:
                "where a browser has no tabs.executeScript (Chromium's Manifest V3), the shim runs it with "
                + "scripting.executeScript: a file, frameId, allFrames; a code string has no equivalent there (it "
                + "rejects): move the code into a file"),
        Rule(
            pattern: .member("tabs", "insertCSS"), scope: .script, api: "tabs.insertCSS / removeCSS (Manifest V2)",
            equivalent: .yes, advice: "where a browser has no tabs.insertCSS, the shim runs scripting.insertCSS"),
        Rule(
            pattern: .property("browserAction"), scope: .script, api: "browserAction (Manifest V2)", equivalent: .yes,
            advice: "where a browser has only action (Chromium's Manifest V3), the shim gives browserAction as action"),
        Rule(
            pattern: .property("pageAction"), scope: .script, api: "pageAction (Manifest V2)", equivalent: .differs,
            advice:
                "where a browser has only action, the shim gives pageAction as action with show/hide as enable/disable: "
                + "the button shows on every tab, greyed where hidden"),
        Rule(
            pattern: .member("extension", "getURL"), scope: .script, api: "extension.getURL (Manifest V2)",
            equivalent: .yes,
            advice: "where a browser has no extension.getURL, the shim gives runtime.getURL"),
    ]

    /// Every rule's match in the author's text files: at most one finding per file and rule, the first
    /// line it is on. `roles` gives the places each script runs in (background, content, page).
    static func scan(_ files: [GeneratedFile], roles: (String) -> Set<Scope>) -> [Finding] {
        var out: [Finding] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            let lower = file.path.lowercased()
            let isSwift = lower.hasSuffix(".swift")
            guard isSwift || lower.hasSuffix(".js") || lower.hasSuffix(".mjs") else { continue }
            let scopes: Set<Scope> = isSwift ? [.swift] : roles(file.path).isEmpty ? [.page] : roles(file.path)
            let tokens = JavaScriptTokens(file.bytes)
            var seen: Set<String> = []
            for (index, token) in tokens.tokens.enumerated() where token.kind == .identifier {
                guard
                    let rule = rulesByName[token.text]?.first(where: { rule in
                        applies(rule.scope, to: scopes) && matches(rule.pattern, tokens, index)
                    }), seen.insert(rule.api).inserted
                else { continue }
                out.append(
                    Finding(
                        file: file.path, line: token.line, api: rule.api, equivalent: rule.equivalent,
                        advice: rule.advice))
            }
        }
        return out
    }

    /// The rules by the name their pattern starts with, in the table's order.
    static let rulesByName: [String: [Rule]] = Dictionary(grouping: rules) { rule in
        switch rule.pattern {
        case .name(let name), .property(let name), .member(let name, _): return name
        }
    }

    static func applies(_ scope: Scope, to scopes: Set<Scope>) -> Bool {
        switch scope {
        case .any: return true
        case .script: return !scopes.contains(.swift)
        default: return scopes.contains(scope)
        }
    }

    static func matches(_ pattern: Pattern, _ tokens: JavaScriptTokens, _ index: Int) -> Bool {
        switch pattern {
        case .name(let name): return tokens.isIdentifier(index, name)
        case .property(let name): return tokens.isIdentifier(index, name) && tokens.isPunctuation(index - 1, ".")
        case .member(let object, let member):
            return tokens.isIdentifier(index, object) && tokens.isPunctuation(index + 1, ".")
                && tokens.isIdentifier(index + 2, member)
        }
    }
}
