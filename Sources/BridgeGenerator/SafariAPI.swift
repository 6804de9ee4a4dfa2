/// The Safari APIs an imported extension may use, and what each becomes in
/// Chromium and Firefox with ExtensionBridge (docs/GENERATOR.md, "Porting a
/// Safari Web Extension", prints the same table).
public enum SafariAPI {
    /// Whether a Safari API has an equivalent here.
    public enum Equivalent: String, Equatable, Sendable {
        /// Works unchanged: the shim or the host covers it.
        case yes
        /// Works, with a difference the author should know.
        case differs
        /// No equivalent: the author changes the code.
        case no
    }

    /// An API use found in the author's code.
    public struct Finding: Equatable, Sendable {
        public var file: String
        public var line: Int
        public var api: String
        public var equivalent: Equivalent
        public var advice: String
    }

    /// One row: a text to look for, where it matters, and what to do.
    public struct Rule: Sendable {
        /// What is searched for, as written in code.
        public var pattern: String
        /// Where: any file, or only background, content-script or other (page) files.
        public var scope: Scope
        /// The API's name as the report shows it.
        public var api: String
        public var equivalent: Equivalent
        public var advice: String
        /// Match `pattern` only as a whole identifier (not inside `mybrowser` or `browserAction`).
        public var wholeWord = false
    }

    public enum Scope: Sendable { case any, background, content, page, swift }

    /// The table, most specific first: a line matches at most one rule.
    public static let rules: [Rule] = [
        Rule(
            pattern: "SFSafariApplication", scope: .any, api: "SFSafariApplication (dispatchMessage, showPreferences…)",
            equivalent: .no,
            advice:
                "the app cannot push a message into the extension; write the suite (SharedSuite) and let the extension "
                + "ask the host (getSettings) or listen for the pageState event on a connectNative port"),
        Rule(
            pattern: "SFSafariExtensionHandler", scope: .any, api: "SFSafariExtensionHandler (Safari app extensions)",
            equivalent: .no, advice: "legacy Safari App Extensions have no equivalent; port them to a web extension"),
        Rule(
            pattern: "safari.extension", scope: .any, api: "safari.extension (Safari App Extension JS)",
            equivalent: .no,
            advice: "use browser.runtime.sendMessage to the background, which calls sendNativeMessage"),
        Rule(
            pattern: "safari.self", scope: .any, api: "safari.self (Safari App Extension JS)", equivalent: .no,
            advice: "use browser.runtime.onMessage / sendMessage"),
        Rule(
            pattern: "safari.application", scope: .any, api: "safari.application (Safari App Extension JS)",
            equivalent: .no, advice: "use browser.tabs and browser.windows"),
        Rule(
            pattern: "NSExtensionRequestHandling", scope: .swift, api: "SafariWebExtensionHandler (Swift)",
            equivalent: .yes,
            advice:
                "the generated host answers the built-in messages (request:enabled_status among them); write your "
                + "own as a BridgeAction in Sources/; this folder should be Xcode's Resources, not the Swift target"),
        Rule(
            pattern: "sendNativeMessage", scope: .content, api: "browser.runtime.sendNativeMessage in a content script",
            equivalent: .no,
            advice:
                "Chromium and Firefox let only extension pages and the background talk to a native host: send "
                + "browser.runtime.sendMessage to your background and call sendNativeMessage there"),
        Rule(
            pattern: "sendNativeMessage", scope: .background, api: "browser.runtime.sendNativeMessage (background)",
            equivalent: .yes,
            advice:
                "the shim sends every Safari form to this bridge's host; a missing host gives the callback undefined "
                + "(runtime.lastError set) and rejects the promise, as Safari does"),
        Rule(
            pattern: "sendNativeMessage", scope: .page,
            api: "browser.runtime.sendNativeMessage in a page (popup, options)",
            equivalent: .differs,
            advice:
                "add <script src=\"/bridge-compat/safari-shim.js\"></script> before the page's own scripts, so the "
                + "Safari form reaches the bridge's host (and browser exists in Chromium)"),
        Rule(
            pattern: "connectNative", scope: .any, api: "browser.runtime.connectNative", equivalent: .differs,
            advice:
                "the shim opens this bridge's host whatever app id is given; one host process serves the port for its "
                + "life (Safari hands each message to the handler); the host answers the same messages on it"),
        Rule(
            pattern: "getBackgroundPage", scope: .any, api: "runtime.getBackgroundPage / extension.getBackgroundPage",
            equivalent: .no,
            advice: "Chromium's background is a service worker without a page: exchange messages instead"),
        Rule(
            pattern: "tabs.executeScript", scope: .any, api: "tabs.executeScript / tabs.insertCSS (Manifest V2)",
            equivalent: .no,
            advice: "use browser.scripting.executeScript / insertCSS and the scripting permission"),
        Rule(
            pattern: "browserAction", scope: .any, api: "browserAction (Manifest V2)", equivalent: .no,
            advice: "use browser.action"),
        Rule(
            pattern: "browser", scope: .page, api: "the browser namespace in a page", equivalent: .differs,
            advice:
                "Chromium has no browser namespace on extension pages: add <script "
                + "src=\"/bridge-compat/browser-namespace.js\"></script> before the page's own scripts",
            wholeWord: true),
    ]

    /// Every rule's match in the author's text files (`.js`, `.mjs`, `.html`, `.htm`, `.swift`): at most
    /// one finding per file and rule, the first line it is on.
    static func scan(_ files: [GeneratedFile], background: Set<String>, content: Set<String>) -> [Finding] {
        var out: [Finding] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            let lower = file.path.lowercased()
            let isSwift = lower.hasSuffix(".swift")
            guard isSwift || [".js", ".mjs", ".html", ".htm"].contains(where: lower.hasSuffix) else { continue }
            let scope: Scope =
                isSwift
                ? .swift : background.contains(file.path) ? .background : content.contains(file.path) ? .content : .page
            let lines = file.bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            var seen: Set<String> = []
            for (number, line) in lines.enumerated() {
                let text = String(decoding: line, as: UTF8.self)
                guard
                    let rule = rules.first(where: { rule in
                        (rule.scope == .any || rule.scope == scope)
                            && (rule.wholeWord ? containsWord(line, rule.pattern) : text.contains(rule.pattern))
                    }), !seen.contains(rule.api)
                else { continue }
                seen.insert(rule.api)
                out.append(
                    Finding(
                        file: file.path, line: number + 1, api: rule.api, equivalent: rule.equivalent,
                        advice: rule.advice))
            }
        }
        return out
    }
}

/// Whether `word` occurs in `line` with no identifier character (letter, digit, `_`, `$`) on either side.
private func containsWord(_ line: ArraySlice<UInt8>, _ word: String) -> Bool {
    let needle = Array(word.utf8)
    let bytes = Array(line)
    func isIdentifier(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x24
            || b >= 0x80
    }
    guard bytes.count >= needle.count else { return false }
    for start in 0...(bytes.count - needle.count) where bytes[start..<(start + needle.count)].elementsEqual(needle) {
        let before = start == 0 ? nil : bytes[start - 1]
        let after = start + needle.count < bytes.count ? bytes[start + needle.count] : nil
        if !(before.map(isIdentifier) ?? false) && !(after.map(isIdentifier) ?? false) { return true }
    }
    return false
}
