import BridgeJSON

extension SafariAdaptation {
    /// A page's globals that Chromium's service worker lacks, and what to do about each.
    static let pageGlobals: [String: String] = [
        "document": "there is no DOM: do DOM work in a page or an offscreen document",
        "localStorage": "use browser.storage.local (asynchronous)", "sessionStorage": "use browser.storage.session",
        "XMLHttpRequest": "use fetch", "DOMParser": "parse in a page or an offscreen document",
        "alert": "show it in a page or a notification", "confirm": "ask in a page", "prompt": "ask in a page",
        "Image": "use createImageBitmap or OffscreenCanvas", "Audio": "play it in an offscreen document",
        "getComputedStyle": "there is no DOM", "requestAnimationFrame": "use setTimeout",
    ]

    /// The report's findings (the author's code and Swift) and the native messages it sends.
    mutating func scan() {
        var wrappedScripts: Set<String> = []
        for keyPath in Self.pageKeys {
            guard let page = Self.value(at: keyPath, in: manifest),
                ExtensionPath.name(page).hasPrefix(SafariImport.compatFolder)
            else { continue }
            let folder = ExtensionPath.folder(page)
            let original =
                (folder.isEmpty ? "" : folder + "/")
                + String(ExtensionPath.name(page).dropFirst(SafariImport.compatFolder.count + 1))
            wrappedScripts.formUnion(SafariScriptRoles.scripts(ofPage: original, files: files))
        }
        for var finding in SafariAPI.scan(authorFiles, roles: { self.scopes($0) }) {
            if finding.api == "browser.runtime.sendNativeMessage in a page" && !wrappedScripts.contains(finding.file) {
                finding.equivalent = .differs
                finding.advice =
                    "its page is not one the manifest names, so no generated page loads the shim for it: add <script "
                    + "src=\"/\(SafariImport.shimPath)\"></script> before its scripts, or open it as the manifest's page"
            }
            report.findings.append(finding)
        }
        reportPageGlobals()
        reportSvgIcons()
        let senders = authorFiles.filter { file in
            SafariScriptRoles.isScript(file.path)
                && (roles[file.path].isEmpty || roles[file.path].contains(.background)
                    || roles[file.path].contains(.page))
        }
        report.messages = SafariMessageActions.assigned(
            SafariMessages.scan(senders.map { ($0.path, $0.bytes) }), spec: spec)
    }

    func scopes(_ path: String) -> Set<SafariAPI.Scope> {
        Set(
            roles[path].map { role -> SafariAPI.Scope in
                switch role {
                case .background: return .background
                case .content, .mainWorld: return .content
                case .page: return .page
                }
            })
    }

    /// Each page global the background's code uses, at its first use in each file: stood in by
    /// `worker-globals.js` (`window`, `matchMedia`), or reported as missing in Chromium's worker.
    mutating func reportPageGlobals() {
        let standIn =
            entryPath.map {
                files[$0].map { String(decoding: $0, as: UTF8.self).contains(SafariImport.workerGlobalsPath) } ?? false
            } ?? false
        for file in authorFiles where roles[file.path].contains(.background) && SafariScriptRoles.isScript(file.path) {
            let tokens = JavaScriptTokens(file.bytes)
            var seen: Set<String> = []
            for index in tokens.tokens.indices where Self.isGlobal(tokens, index) {
                let name = tokens.tokens[index].text
                let line = tokens.tokens[index].line
                if (name == "window" || name == "matchMedia") && seen.insert(name).inserted {
                    report.find(
                        file.path, line, "\(name) in the background", standIn ? .differs : .no,
                        standIn
                            ? (name == "window"
                                ? "Chromium's background is a service worker: \(SafariImport.workerGlobalsPath) makes window the worker's global (self) before your scripts run; Firefox's background page has its own"
                                : "Chromium's service worker has no screen: \(SafariImport.workerGlobalsPath) gives a matchMedia that never matches")
                            : "Chromium's background is a service worker without \(name) (your code tests for it): Firefox's background page has it"
                    )
                } else if let advice = Self.pageGlobals[name], seen.insert(name).inserted {
                    report.find(
                        file.path, line, "\(name) in the background", .no,
                        "Chromium's background is a service worker without \(name): \(advice) (Firefox's background page has it)"
                    )
                }
            }
        }
    }

    /// SVG icons, which Safari recommends for the toolbar and Firefox shows, but Chromium does not:
    /// the manifest's (Chromium loads the extension and shows a default icon) and `setIcon` calls in
    /// code that names an `.svg` (the shim leaves those paths out in Chromium, with a warning).
    mutating func reportSvgIcons() {
        let icons = namedPaths().filter {
            ($0.key.hasPrefix("icons") || $0.key.contains("icon")) && $0.path.lowercased().hasSuffix(".svg")
        }
        if let first = icons.first {
            report.find(
                "manifest.json", manifestLine(first.key.split(separator: ".").first.map(String.init) ?? first.key),
                "SVG icons", .differs,
                "Chromium shows no SVG icon (\(icons.map { DisplayText.escaped($0.path) }.joined(separator: ", "))): "
                    + "add PNG icons of the sizes the manifest names, for Chromium")
        }
        for file in authorFiles where SafariScriptRoles.isScript(file.path) {
            let tokens = JavaScriptTokens(file.bytes)
            guard tokens.tokens.contains(where: { $0.kind == .string && $0.text.lowercased().hasSuffix(".svg") }),
                let call = tokens.tokens.first(where: { $0.kind == .identifier && $0.text == "setIcon" })
            else { continue }
            report.find(
                file.path, call.line, "action.setIcon with an SVG", .differs,
                "Chromium cannot decode an SVG for setIcon: the shim leaves SVG paths out there (the icon stays as "
                    + "it was, with a warning); pass PNG paths or imageData for Chromium")
        }
    }
}
