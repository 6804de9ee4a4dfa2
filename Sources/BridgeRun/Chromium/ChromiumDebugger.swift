import BridgeJSON

/// Chromium's DevTools protocol, over `--remote-debugging-pipe`: attaches to the
/// extension's service worker, its pages and every tab (content scripts run in the
/// extension's isolated world there), turns their console and uncaught errors into
/// `ConsoleMessage`s, and reloads the extension (`Extensions.loadUnpacked`, the same
/// folder) and the web pages after an edit.
public final class ChromiumDebugger: BrowserDebugger {
    struct Target {
        var type: String
        var url: String
        var targetID: String
    }

    struct Context: Hashable {
        var session: String
        var id: Int
    }

    enum Purpose {
        case loadUnpacked
        /// A command to the browser itself: its failure is news.
        case browser(String)
        /// A command to one target, which may have gone meanwhile: its failure is not.
        case target
    }

    private let extensionFolder: String
    private let origin: String
    private let roles: ExtensionRoles
    private var nextID = 0
    private var pending: [Int: Purpose] = [:]
    private var targets: [String: Target] = [:]
    private var ours: Set<Context> = []
    private var ready = false

    /// - Parameters:
    ///   - extensionID: the extension's Chromium id (from its manifest key).
    ///   - extensionFolder: the unpacked folder, loaded again on reload.
    ///   - roles: which of its files are background, popup and content scripts.
    public init(extensionID: String, extensionFolder: String, roles: ExtensionRoles) {
        self.origin = "chrome-extension://" + extensionID
        self.extensionFolder = extensionFolder
        self.roles = roles
    }

    public func start() -> [DebuggerEffect] {
        // Browser-wide auto-attach, paused at start: a service worker's first lines are
        // seen too. Pages for content scripts and extension pages, service workers for
        // the background, and "other": Chromium 156 opens an action's popup as one (with
        // no URL yet; it becomes a page of ours).
        let filter: JSONValue = [
            ["type": "page", "exclude": false], ["type": "service_worker", "exclude": false],
            ["type": "other", "exclude": false],
        ]
        return [
            // Discovery too: a target's new URL after a navigation is told only to those who discover.
            command("Target.setDiscoverTargets", ["discover": true]),
            command(
                "Target.setAutoAttach",
                ["autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true, "filter": filter]),
        ]
    }

    public func open(url: String) -> [DebuggerEffect] {
        let blank = targets.first { session, target in
            target.type == "page"
                && (target.url == "about:blank" || target.url.hasPrefix("chrome://newtab")
                    || target.url.hasPrefix("chrome://new-tab-page"))
        }
        if let (session, _) = blank {
            return [command("Page.navigate", ["url": .string(url)], session: session)]
        }
        return [command("Target.createTarget", ["url": .string(url)])]
    }

    public func reloadExtension() -> [DebuggerEffect] {
        [command("Extensions.loadUnpacked", ["path": .string(extensionFolder)], purpose: .loadUnpacked)]
    }

    public func close() -> [DebuggerEffect] { [command("Browser.close", [:])] }

    public func handle(_ message: JSONValue) -> [DebuggerEffect] {
        if let id = message["id"]?.intValue { return reply(id: id, message) }
        guard let method = message["method"]?.stringValue else { return [] }
        let params = message["params"] ?? [:]
        let session = message["sessionId"]?.stringValue ?? ""
        switch method {
        case "Target.attachedToTarget": return attached(params)
        case "Target.targetInfoChanged":
            if let info = params["targetInfo"], let id = info["targetId"]?.stringValue {
                for (key, target) in targets where target.targetID == id {
                    targets[key]?.url = info["url"]?.stringValue ?? target.url
                    targets[key]?.type = info["type"]?.stringValue ?? target.type
                }
            }
        case "Target.detachedFromTarget":
            if let gone = params["sessionId"]?.stringValue {
                targets[gone] = nil
                ours = ours.filter { $0.session != gone }
            }
        case "Runtime.executionContextCreated": contextCreated(params["context"] ?? [:], session: session)
        case "Runtime.executionContextDestroyed":
            if let id = params["executionContextId"]?.intValue { ours.remove(Context(session: session, id: id)) }
        case "Runtime.executionContextsCleared": ours = ours.filter { $0.session != session }
        case "Runtime.consoleAPICalled": return consoleCalled(params, session: session)
        case "Runtime.exceptionThrown": return exceptionThrown(params["exceptionDetails"] ?? [:], session: session)
        default: break
        }
        return []
    }

    // MARK: Targets and contexts

    private func attached(_ params: JSONValue) -> [DebuggerEffect] {
        guard let session = params["sessionId"]?.stringValue, let info = params["targetInfo"] else { return [] }
        let target = Target(
            type: info["type"]?.stringValue ?? "", url: info["url"]?.stringValue ?? "",
            targetID: info["targetId"]?.stringValue ?? "")
        let resume = command("Runtime.runIfWaitingForDebugger", [:], session: session)
        if target.type == "service_worker" && !isOurs(target.url) {
            // Another extension's or a site's worker: let it run, and let it go.
            return [resume, command("Target.detachFromTarget", ["sessionId": .string(session)])]
        }
        targets[session] = target
        var effects = [command("Runtime.enable", [:], session: session), resume]
        if target.type == "service_worker" && !ready {
            ready = true
            effects.append(.ready)
        }
        return effects
    }

    private func contextCreated(_ context: JSONValue, session: String) {
        guard let id = context["id"]?.intValue, let target = targets[session] else { return }
        // Ours: every context of our pages and worker (their origin is ours, or the worker's script
        // URL), and our content scripts' isolated worlds in any page (their origin is ours too).
        let contextOrigin = context["origin"]?.stringValue ?? ""
        if isOurs(target.url) || contextOrigin == origin || isOurs(contextOrigin) {
            ours.insert(Context(session: session, id: id))
        }
    }

    /// Where code in `session` ran, for a context of ours.
    private func origin(of session: String) -> ConsoleMessage.Origin {
        guard let target = targets[session] else { return .background }
        if target.type == "service_worker" { return .background }
        if isOurs(target.url) { return roles.origin(ofDocument: path(of: target.url)) }
        return .content(page: target.url)
    }

    private func isOurs(_ url: String) -> Bool { url.hasPrefix(origin + "/") }

    private func path(of url: String) -> String { String(url.dropFirst(origin.count + 1)) }

    // MARK: Console

    private func consoleCalled(_ params: JSONValue, session: String) -> [DebuggerEffect] {
        guard let context = params["executionContextId"]?.intValue,
            ours.contains(Context(session: session, id: context))
        else { return [] }
        let text = (params["args"]?.arrayValue ?? []).map(ChromiumDebugger.text(of:)).joined(separator: " ")
        let frame = params["stackTrace"]?["callFrames"]?.arrayValue?.first
        return [
            .console(
                ConsoleMessage(
                    origin: origin(of: session), kind: .init(consoleLevel: params["type"]?.stringValue ?? "log"),
                    text: ConsoleMessage.oneLine(text),
                    location: location(url: frame?["url"]?.stringValue, line: frame?["lineNumber"]?.intValue)))
        ]
    }

    private func exceptionThrown(_ details: JSONValue, session: String) -> [DebuggerEffect] {
        guard let context = details["executionContextId"]?.intValue,
            ours.contains(Context(session: session, id: context))
        else { return [] }
        let description = details["exception"]?["description"]?.stringValue
        let heading = details["text"]?.stringValue ?? "Uncaught"
        // "Uncaught" then the error's own first line; a rejection says so in the heading.
        var text = description.map(ConsoleMessage.oneLine) ?? heading
        if heading.contains("in promise") { text = "(in promise) " + text }
        let frame = details["stackTrace"]?["callFrames"]?.arrayValue?.first
        let url = frame?["url"]?.stringValue ?? details["url"]?.stringValue
        let line = frame?["lineNumber"]?.intValue ?? details["lineNumber"]?.intValue
        return [
            .console(
                ConsoleMessage(
                    origin: origin(of: session), kind: .uncaught, text: text, location: location(url: url, line: line)))
        ]
    }

    /// `path:line` for a URL of ours (DevTools counts lines from 0), else the URL.
    private func location(url: String?, line: Int?) -> String {
        guard let url, !url.isEmpty else { return "" }
        let shown = isOurs(url) ? path(of: url) : url
        return line.map { "\(shown):\($0 + 1)" } ?? shown
    }

    /// A console argument as text: strings as they are, other values as DevTools describes them.
    static func text(of argument: JSONValue) -> String {
        if let string = argument["value"]?.stringValue, argument["type"]?.stringValue == "string" { return string }
        if let value = argument["value"], value != .null { return JSONWriter.string(value) }
        if let unserializable = argument["unserializableValue"]?.stringValue { return unserializable }
        if argument["subtype"]?.stringValue == "null" { return "null" }
        if argument["type"]?.stringValue == "undefined" { return "undefined" }
        return argument["description"]?.stringValue ?? argument["className"]?.stringValue ?? "object"
    }

    // MARK: Commands and replies

    private func command(
        _ method: String, _ params: JSONValue, session: String? = nil, purpose: Purpose? = nil
    ) -> DebuggerEffect {
        nextID += 1
        pending[nextID] = purpose ?? (session == nil ? .browser(method) : .target)
        var message: [String: JSONValue] = ["id": .int(nextID), "method": .string(method), "params": params]
        if let session { message["sessionId"] = .string(session) }
        return .send(.object(message))
    }

    private func reply(id: Int, _ message: JSONValue) -> [DebuggerEffect] {
        guard let purpose = pending.removeValue(forKey: id) else { return [] }
        let error = message["error"]?["message"]?.stringValue
        switch purpose {
        case .loadUnpacked:
            if let error { return [.problem("the extension did not reload: \(error)")] }
            let pages = targets.filter { $0.value.type == "page" && isWebPage($0.value.url) }
            return pages.map { command("Page.reload", [:], session: $0.key) } + [.reloaded(pages: pages.count)]
        case .browser(let method):
            return error.map { [.problem("\(method): \($0)")] } ?? []
        case .target:
            return []
        }
    }
}
