import BridgeJSON

/// Firefox's remote debugging protocol, the one `web-ext run` speaks: installs the
/// extension as a temporary add-on, watches the console of every process (the
/// parent process's watcher: background, popup and content scripts alike), and
/// reloads the add-on and the web pages after an edit.
///
/// Every request goes to an actor, which answers its requests in order: replies are
/// matched to requests by their actor, first in, first out. Events are the messages
/// with a `type`.
public final class FirefoxDebugger: BrowserDebugger {
    enum Purpose {
        case root, install, listAddons, process, watcher, reloadAddons, reload, listTabsToReload
        case listTabsToOpen(String)
        /// A request whose answer only matters when it is an error.
        case other(String)
    }

    private let extensionFolder: String
    private let addonID: String
    /// `moz-extension://UUID/`: fixed before start (the profile's `extensions.webextensions.uuids`).
    private let base: String
    private let roles: ExtensionRoles
    private var pending: [String: [Purpose]] = [:]
    /// Web pages and the extension's documents, by inner window id: where a console line ran.
    private var documents: [Int: String] = [:]

    /// - Parameters:
    ///   - addonID: the add-on id (`browser_specific_settings.gecko.id`).
    ///   - uuid: the UUID the profile gives the add-on's `moz-extension://` origin.
    ///   - extensionFolder: the unpacked folder to install.
    ///   - roles: which of its files are background, popup and content scripts.
    public init(addonID: String, uuid: String, extensionFolder: String, roles: ExtensionRoles) {
        self.addonID = addonID
        self.base = "moz-extension://\(uuid)/"
        self.extensionFolder = extensionFolder
        self.roles = roles
    }

    public func start() -> [DebuggerEffect] { [] }

    public func open(url: String) -> [DebuggerEffect] {
        [request("root", "listTabs", purpose: .listTabsToOpen(url))]
    }

    public func reloadExtension() -> [DebuggerEffect] {
        [request("root", "listAddons", purpose: .reloadAddons)]
    }

    public func close() -> [DebuggerEffect] { [] }

    public func handle(_ message: JSONValue) -> [DebuggerEffect] {
        let from = message["from"]?.stringValue ?? ""
        if from == "root", message["applicationType"] != nil {
            // The greeting: the root actor's first words.
            return [request("root", "getRoot", purpose: .root)]
        }
        if let type = message["type"]?.stringValue { return event(type, message) }
        guard var queue = pending[from], !queue.isEmpty else { return [] }
        let purpose = queue.removeFirst()
        pending[from] = queue
        if let error = message["error"]?.stringValue {
            return [.problem(FirefoxDebugger.failure(purpose, error, message["message"]?.stringValue))]
        }
        return reply(purpose, message)
    }

    // MARK: Replies

    private func reply(_ purpose: Purpose, _ message: JSONValue) -> [DebuggerEffect] {
        switch purpose {
        case .root:
            guard let addons = message["addonsActor"]?.stringValue else {
                return [.problem("this Firefox offers no add-ons actor: it cannot install a temporary add-on")]
            }
            return [
                request(addons, "installTemporaryAddon", ["addonPath": .string(extensionFolder)], purpose: .install),
                request("root", "getProcess", ["id": 0], purpose: .process),
            ]
        case .install:
            return [request("root", "listAddons", purpose: .listAddons)]
        case .listAddons:
            guard descriptor(in: message) != nil else {
                return [.problem("the add-on \(addonID) is not installed after installTemporaryAddon")]
            }
            return [.ready]
        case .process:
            guard let actor = message["processDescriptor"]?["actor"]?.stringValue else { return [] }
            return [request(actor, "getWatcher", ["isServerTargetSwitchingEnabled": true], purpose: .watcher)]
        case .watcher:
            guard let watcher = message["actor"]?.stringValue else { return [] }
            return ["frame", "process", "worker"].map {
                request(watcher, "watchTargets", ["targetType": .string($0)], purpose: .other("watchTargets"))
            } + [
                request(
                    watcher, "watchResources", ["resourceTypes": ["console-message", "error-message"]],
                    purpose: .other("watchResources"))
            ]
        case .reloadAddons:
            guard let actor = descriptor(in: message) else {
                return [.problem("the add-on \(addonID) is no longer installed: restart run")]
            }
            return [request(actor, "reload", purpose: .reload)]
        case .reload:
            return [request("root", "listTabs", purpose: .listTabsToReload)]
        case .listTabsToReload:
            let tabs = (message["tabs"]?.arrayValue ?? []).filter { isWebPage($0["url"]?.stringValue ?? "") }
            let reloads = tabs.compactMap { tab in
                tab["actor"]?.stringValue.map {
                    request($0, "reloadDescriptor", ["bypassCache": false], purpose: .other("reloadDescriptor"))
                }
            }
            return reloads + [.reloaded(pages: reloads.count)]
        case .listTabsToOpen(let url):
            let tabs = message["tabs"]?.arrayValue ?? []
            let tab = tabs.first { $0["selected"]?.boolValue == true } ?? tabs.first
            guard let actor = tab?["actor"]?.stringValue else { return [.problem("no tab to open \(url) in")] }
            return [
                request(
                    actor, "navigateTo", ["url": .string(url), "waitForLoad": false], purpose: .other("navigateTo"))
            ]
        case .other:
            return []
        }
    }

    private func descriptor(in listAddons: JSONValue) -> String? {
        let addon = listAddons["addons"]?.arrayValue?.first { $0["id"]?.stringValue == addonID }
        return addon?["actor"]?.stringValue
    }

    static func failure(_ purpose: Purpose, _ error: String, _ message: String?) -> String {
        let detail = message.map { "\(error): \($0)" } ?? error
        switch purpose {
        case .install: return "Firefox did not install the extension: \(detail)"
        case .reload, .reloadAddons: return "the extension did not reload: \(detail)"
        case .listTabsToOpen(let url): return "Firefox did not open \(url): \(detail)"
        default: return "Firefox: \(detail)"
        }
    }

    // MARK: Events

    private func event(_ type: String, _ message: JSONValue) -> [DebuggerEffect] {
        switch type {
        case "target-available-form":
            if let target = message["target"], let window = target["innerWindowId"]?.intValue,
                let url = target["url"]?.stringValue
            {
                documents[window] = url
            }
        case "target-destroyed-form":
            if let window = message["target"]?["innerWindowId"]?.intValue { documents[window] = nil }
        case "resources-available-array":
            var effects: [DebuggerEffect] = []
            for entry in message["array"]?.arrayValue ?? [] {
                guard let pair = entry.arrayValue, pair.count == 2, let kind = pair[0].stringValue else { continue }
                for resource in pair[1].arrayValue ?? [] {
                    if let line = consoleMessage(kind, resource) { effects.append(.console(line)) }
                }
            }
            return effects
        default: break
        }
        return []
    }

    /// A console line or page error of ours; nil for the page's own and the browser's.
    func consoleMessage(_ resourceType: String, _ resource: JSONValue) -> ConsoleMessage? {
        if resourceType == "console-message" {
            let message = resource["message"] ?? resource
            guard let file = message["filename"]?.stringValue, isOurs(file, stack: message["stacktrace"]) else {
                return nil
            }
            let text = (message["arguments"]?.arrayValue ?? []).map(FirefoxDebugger.text(of:)).joined(separator: " ")
            return ConsoleMessage(
                origin: origin(window: message["innerWindowID"]?.intValue, script: file),
                kind: .init(consoleLevel: message["level"]?.stringValue ?? "log"), text: ConsoleMessage.oneLine(text),
                location: location(file, message["lineNumber"]?.intValue))
        }
        guard resourceType == "error-message", let error = resource["pageError"],
            let file = error["sourceName"]?.stringValue, isOurs(file, stack: error["stacktrace"])
        else { return nil }
        let category = error["category"]?.stringValue ?? ""
        let kind: ConsoleMessage.Kind =
            error["warning"]?.boolValue == true
            ? .warn : category.contains("javascript") || error["exception"] != nil ? .uncaught : .error
        var text = ConsoleMessage.oneLine(error["errorMessage"]?.stringValue ?? "")
        if error["isPromiseRejection"]?.boolValue == true { text = "(in promise) " + text }
        return ConsoleMessage(
            origin: origin(window: error["innerWindowID"]?.intValue, script: file), kind: kind, text: text,
            location: location(file, error["lineNumber"]?.intValue))
    }

    private func isOurs(_ file: String, stack: JSONValue?) -> Bool {
        if file.hasPrefix(base) { return true }
        return (stack?.arrayValue ?? []).contains { $0["filename"]?.stringValue?.hasPrefix(base) == true }
    }

    private func origin(window: Int?, script: String) -> ConsoleMessage.Origin {
        let document = window.flatMap { documents[$0] }
        if let document, document.hasPrefix(base) {
            return roles.origin(ofDocument: String(document.dropFirst(base.count)))
        }
        if let document { return .content(page: document) }
        let path = script.hasPrefix(base) ? String(script.dropFirst(base.count)) : script
        return roles.origin(ofScript: path, page: "")
    }

    private func location(_ file: String, _ line: Int?) -> String {
        let shown = file.hasPrefix(base) ? String(file.dropFirst(base.count)) : file
        return line.map { "\(shown):\($0)" } ?? shown
    }

    /// A console argument as text: strings as they are, errors as `Name: message`, other
    /// objects by their class.
    static func text(of argument: JSONValue) -> String {
        if let string = argument.stringValue { return string }
        switch argument {
        case .int, .double, .bool, .null: return JSONWriter.string(argument)
        default: break
        }
        switch argument["type"]?.stringValue {
        case "undefined": return "undefined"
        case "null": return "null"
        case "longString": return (argument["initial"]?.stringValue ?? "") + "…"
        default: break
        }
        if let preview = argument["preview"], preview["kind"]?.stringValue == "Error" {
            let name = preview["name"]?.stringValue ?? "Error"
            let message = preview["message"]?.stringValue ?? ""
            return message.isEmpty ? name : "\(name): \(message)"
        }
        return argument["class"]?.stringValue ?? "object"
    }

    // MARK: Requests

    private func request(
        _ actor: String, _ type: String, _ fields: [String: JSONValue] = [:], purpose: Purpose
    ) -> DebuggerEffect {
        pending[actor, default: []].append(purpose)
        var message = fields
        message["to"] = .string(actor)
        message["type"] = .string(type)
        return .send(.object(message))
    }
}
