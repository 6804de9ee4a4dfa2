import BridgeJSON
import BridgeSystem

/// Which of an extension's files play which part, from its `manifest.json`: how a
/// console line from a URL is tagged background, popup, content or another page.
public struct ExtensionRoles: Equatable, Sendable {
    /// The background's files: its service worker, scripts or page (paths inside the extension).
    public var background: Set<String>
    /// The popup page (`action.default_popup`, `browser_action.default_popup`).
    public var popup: String?
    /// The content scripts' files.
    public var contentScripts: Set<String>

    public init(background: Set<String> = [], popup: String? = nil, contentScripts: Set<String> = []) {
        self.background = background
        self.popup = popup
        self.contentScripts = contentScripts
    }

    /// The roles `manifest` declares. Firefox runs `background.scripts` in a page it
    /// names `_generated_background_page.html`: that page is the background too.
    public init(manifest: JSONValue) {
        var background: Set<String> = ["_generated_background_page.html"]
        let declared = manifest["background"]
        if let worker = declared?["service_worker"]?.stringValue { background.insert(ExtensionRoles.clean(worker)) }
        if let page = declared?["page"]?.stringValue { background.insert(ExtensionRoles.clean(page)) }
        for script in declared?["scripts"]?.arrayValue ?? [] {
            if let path = script.stringValue { background.insert(ExtensionRoles.clean(path)) }
        }
        var content: Set<String> = []
        for entry in manifest["content_scripts"]?.arrayValue ?? [] {
            for script in entry["js"]?.arrayValue ?? [] {
                if let path = script.stringValue { content.insert(ExtensionRoles.clean(path)) }
            }
        }
        let popup = (manifest["action"] ?? manifest["browser_action"])?["default_popup"]?.stringValue
        self.init(background: background, popup: popup.map(ExtensionRoles.clean), contentScripts: content)
    }

    /// The roles of the extension in `folder`; none when its manifest cannot be read
    /// (the browser says why when it loads it).
    public static func load(extensionFolder folder: String) -> ExtensionRoles {
        guard let bytes = try? FileSystem.readFile(folder + "/manifest.json", limit: 4 << 20),
            let manifest = try? JSONParser.parse(bytes)
        else { return ExtensionRoles() }
        return ExtensionRoles(manifest: manifest)
    }

    /// Where a document of the extension at `path` (its URL's path, no leading `/`) belongs.
    public func origin(ofDocument path: String) -> ConsoleMessage.Origin {
        let path = ExtensionRoles.clean(path)
        if background.contains(path) { return .background }
        if path == popup { return .popup }
        return .page(path: path)
    }

    /// Where a script at `path` most likely ran, when the document it ran in is not known.
    public func origin(ofScript path: String, page: String) -> ConsoleMessage.Origin {
        let path = ExtensionRoles.clean(path)
        if contentScripts.contains(path) { return .content(page: page) }
        return origin(ofDocument: path)
    }

    /// A manifest path as a URL path: no leading `./` or `/`, no query or fragment.
    static func clean(_ path: String) -> String {
        var text = Substring(path)
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = text[..<cut] }
        while text.hasPrefix("./") { text = text.dropFirst(2) }
        while text.hasPrefix("/") { text = text.dropFirst() }
        return String(text)
    }
}
