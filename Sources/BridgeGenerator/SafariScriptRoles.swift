import BridgeJSON

/// Where each script of an imported extension runs: the background, a
/// content script (in the extension's isolated world or the page's own), or
/// a page of the extension (a popup, an options page, any `.html` of it).
/// Found from the manifest, the pages' `<script>`s and the scripts' module
/// imports, so that a `utils.js` that `background.js` imports is background
/// code too. A script can have several roles.
struct SafariScriptRoles {
    enum Role: Hashable { case background, content, mainWorld, page }

    /// The roles of every script reached, by path.
    private(set) var roles: [String: Set<Role>] = [:]
    /// The background's scripts as the manifest lists them (or its page loads them), in order.
    let backgroundScripts: [String]
    /// The background page, when the manifest names one instead of scripts.
    let backgroundPage: String?
    /// The background's own service worker (`background.service_worker`), when it has one.
    let serviceWorker: String?
    /// Whether the background runs as modules (`"type": "module"`, or a page's module scripts).
    let backgroundIsModule: Bool
    /// What a classic service worker `importScripts`, resolved against its URL, in order.
    private(set) var workerImports: [String] = []

    init(manifest: [String: JSONValue], files: [String: [UInt8]]) {
        let background = manifest["background"]?.objectValue ?? [:]
        var scripts = (background["scripts"]?.arrayValue ?? []).compactMap(\.stringValue).map(Self.plain)
        let page = background["page"]?.stringValue.map(Self.plain)
        let worker = background["service_worker"]?.stringValue.map(Self.plain)
        var module = background["type"]?.stringValue == "module"
        if scripts.isEmpty, let page, let html = files[page] {
            let tags = SafariReferences.html(path: page, bytes: html).filter(\.isScript)
            scripts = tags.map(\.path)
            module = tags.contains(where: \.isModule)
        }
        if scripts.isEmpty, let worker { scripts = [worker] }
        backgroundScripts = scripts
        backgroundPage = page
        serviceWorker = worker
        backgroundIsModule = module

        for script in scripts + [worker].compactMap({ $0 }) { reach(script, as: .background, files: files) }
        // importScripts in a classic service worker: relative to the worker's own URL.
        if let worker, let bytes = files[worker], !module {
            for (url, _) in SafariReferences.importedScripts(tokens: JavaScriptTokens(bytes)) {
                guard let path = SafariReferences.resolve(url, from: worker), !workerImports.contains(path) else {
                    continue
                }
                workerImports.append(path)
                reach(path, as: .background, files: files)
            }
        }
        for entry in manifest["content_scripts"]?.arrayValue ?? [] {
            let role: Role = entry["world"]?.stringValue == "MAIN" ? .mainWorld : .content
            for path in (entry["js"]?.arrayValue ?? []).compactMap(\.stringValue) {
                reach(Self.plain(path), as: role, files: files)
            }
        }
        for (path, bytes) in files where Self.isPage(path) && path != page {
            for reference in SafariReferences.html(path: path, bytes: bytes) where reference.isScript {
                reach(reference.path, as: .page, files: files)
            }
        }
    }

    /// `path` without a leading `/` (the manifest's paths are relative to the extension either way).
    static func plain(_ path: String) -> String { path.hasPrefix("/") ? String(path.dropFirst()) : path }

    static func isPage(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".html") || lower.hasSuffix(".htm")
    }

    static func isScript(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".js") || lower.hasSuffix(".mjs")
    }

    /// Gives `path` and every module it imports `role`.
    private mutating func reach(_ path: String, as role: Role, files: [String: [UInt8]]) {
        var pending = [path]
        while let next = pending.popLast() {
            guard roles[next, default: []].insert(role).inserted, let bytes = files[next], Self.isScript(next)
            else { continue }
            pending += SafariReferences.imports(path: next, tokens: JavaScriptTokens(bytes)).map(\.path)
        }
    }

    /// The roles of `path` (empty for a file no manifest entry, page or import reaches).
    subscript(path: String) -> Set<Role> { roles[path] ?? [] }

    /// The scripts a page loads, with everything they import.
    static func scripts(ofPage page: String, files: [String: [UInt8]]) -> [String] {
        guard let html = files[page] else { return [] }
        var seen: [String] = []
        var pending = SafariReferences.html(path: page, bytes: html).filter(\.isScript).map(\.path)
        while !pending.isEmpty {
            let next = pending.removeFirst()
            guard !seen.contains(next) else { continue }
            seen.append(next)
            if let bytes = files[next], isScript(next) {
                pending += SafariReferences.imports(path: next, tokens: JavaScriptTokens(bytes)).map(\.path)
            }
        }
        return seen
    }
}
