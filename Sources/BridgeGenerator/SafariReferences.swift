/// What an imported extension's files refer to by path: the scripts, styles
/// and images a page loads, the `url(…)`s of a style sheet, the modules a
/// script imports. Each as the path it resolves to inside the extension (as
/// a browser resolves the URL against the file that names it), with the line
/// it is on. URLs with a scheme (`https:`, `data:`, …) are not the
/// extension's files and are left out.
enum SafariReferences {
    struct Reference: Equatable {
        /// The extension-relative path the reference resolves to.
        var path: String
        var line: Int
        /// A `<script>` of a page, or a module import: code, not a picture or a style.
        var isScript: Bool
        /// `<script type="module">`, an `import`: runs as a module.
        var isModule: Bool
    }

    /// What `file` (its path and bytes) refers to.
    static func of(path: String, bytes: [UInt8]) -> [Reference] {
        let lower = path.lowercased()
        if lower.hasSuffix(".html") || lower.hasSuffix(".htm") { return html(path: path, bytes: bytes) }
        if lower.hasSuffix(".css") { return css(path: path, bytes: bytes, firstLine: 1) }
        if lower.hasSuffix(".js") || lower.hasSuffix(".mjs") {
            return imports(path: path, tokens: JavaScriptTokens(bytes))
        }
        return []
    }

    // MARK: Pages

    /// Every tag of a page, with its lowercased name, attributes (names lowercased) and line.
    static func tags(_ bytes: [UInt8]) -> [(name: String, attributes: [String: String], line: Int)] {
        var out: [(String, [String: String], Int)] = []
        var index = 0
        var line = 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A { line += 1 }
            guard byte == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if bytes[index...].starts(with: Array("<!--".utf8)) {
                var end = index + 4
                while end < bytes.count && !bytes[end...].starts(with: Array("-->".utf8)) {
                    if bytes[end] == 0x0A { line += 1 }
                    end += 1
                }
                index = end + 3
                continue
            }
            let startLine = line
            var end = index + 1
            var quote: UInt8?
            while end < bytes.count {
                let b = bytes[end]
                if b == 0x0A { line += 1 }
                if let q = quote {
                    if b == q { quote = nil }
                } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                    quote = b
                } else if b == UInt8(ascii: ">") {
                    break
                }
                end += 1
            }
            if let tag = parseTag(Array(bytes[(index + 1)..<min(end, bytes.count)])) {
                out.append((tag.name, tag.attributes, startLine))
            }
            index = end + 1
        }
        return out
    }

    private static func parseTag(_ inside: [UInt8]) -> (name: String, attributes: [String: String])? {
        let text = String(decoding: inside, as: UTF8.self)
        var scalars = Substring(text)
        func isSpace(_ c: Character) -> Bool { c == " " || c == "\n" || c == "\t" || c == "\r" || c == "/" }
        let name = scalars.prefix { !isSpace($0) }.lowercased()
        guard let first = name.first, first.isLetter else { return nil }
        scalars = scalars.dropFirst(name.count)
        var attributes: [String: String] = [:]
        while true {
            scalars = scalars.drop(while: isSpace)
            guard !scalars.isEmpty else { break }
            let key = scalars.prefix { !isSpace($0) && $0 != "=" }.lowercased()
            scalars = scalars.dropFirst(max(key.count, 1)).drop(while: { $0 == " " || $0 == "\n" || $0 == "\t" })
            var value = ""
            if scalars.first == "=" {
                scalars = scalars.dropFirst().drop(while: { $0 == " " || $0 == "\n" || $0 == "\t" })
                if let q = scalars.first, q == "\"" || q == "'" {
                    let body = scalars.dropFirst()
                    value = String(body.prefix { $0 != q })
                    scalars = body.dropFirst(value.count + 1)
                } else {
                    value = String(scalars.prefix { $0 != " " && $0 != "\n" && $0 != "\t" && $0 != "\r" })
                    scalars = scalars.dropFirst(value.count)
                }
            }
            if !key.isEmpty && attributes[key] == nil { attributes[key] = value }
        }
        return (name, attributes)
    }

    static func html(path: String, bytes: [UInt8]) -> [Reference] {
        var out: [Reference] = []
        for tag in tags(bytes) {
            let (name, attributes, line) = tag
            let module = attributes["type"]?.lowercased() == "module"
            switch name {
            case "script":
                if let src = attributes["src"], let target = resolve(src, from: path) {
                    out.append(Reference(path: target, line: line, isScript: true, isModule: module))
                }
            case "link":
                if let href = attributes["href"], let target = resolve(href, from: path) {
                    let isModule = attributes["rel"]?.lowercased() == "modulepreload"
                    out.append(Reference(path: target, line: line, isScript: isModule, isModule: isModule))
                }
            case "img", "source", "audio", "video", "iframe", "embed":
                if let src = attributes["src"], let target = resolve(src, from: path) {
                    out.append(Reference(path: target, line: line, isScript: false, isModule: false))
                }
            default: break
            }
        }
        // Inline <style> blocks' url(…)s.
        let lower = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
        var from = 0
        while let open = firstIndex(of: Array("<style".utf8), in: lower, from: from),
            let close = firstIndex(of: Array("</style".utf8), in: lower, from: open)
        {
            let firstLine = bytes[..<open].reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            out += css(path: path, bytes: Array(bytes[open..<close]), firstLine: firstLine)
            from = close + 1
        }
        return out
    }

    /// Where `needle` first occurs in `haystack` at or after `from`.
    static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, from <= haystack.count - needle.count else { return nil }
        for start in from...(haystack.count - needle.count)
        where haystack[start] == needle[0] && haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }

    static func css(path: String, bytes: [UInt8], firstLine: Int) -> [Reference] {
        var out: [Reference] = []
        var line = firstLine
        var index = 0
        let marker = Array("url(".utf8)
        while index < bytes.count {
            if bytes[index] == 0x0A { line += 1 }
            if bytes[index...].starts(with: marker) {
                var end = index + marker.count
                while end < bytes.count && bytes[end] != UInt8(ascii: ")") && bytes[end] != 0x0A { end += 1 }
                var value = String(decoding: bytes[(index + marker.count)..<end], as: UTF8.self)
                value = value.trimmingWhitespace()
                if let q = value.first, q == "\"" || q == "'", value.count >= 2 {
                    value = String(value.dropFirst().dropLast())
                }
                if let target = resolve(value, from: path) {
                    out.append(Reference(path: target, line: line, isScript: false, isModule: false))
                }
                index = end
                continue
            }
            index += 1
        }
        return out
    }

    // MARK: Scripts

    /// A script's static and dynamic imports (`import … from "./x.js"`, `import "./x.js"`,
    /// `export … from`, `import("./x.js")`).
    static func imports(path: String, tokens: JavaScriptTokens) -> [Reference] {
        var out: [Reference] = []
        for (index, token) in tokens.tokens.enumerated() where token.kind == .identifier {
            var specifier: JavaScriptTokens.Token?
            if token.text == "import" {
                if tokens.isPunctuation(index - 1, ".") { continue }
                if let next = tokens[index + 1], next.kind == .string {
                    specifier = next
                } else if tokens.isPunctuation(index + 1, "("), let next = tokens[index + 2], next.kind == .string {
                    specifier = next
                }
            } else if token.text == "from", let next = tokens[index + 1], next.kind == .string {
                specifier = next
            }
            guard let specifier, specifier.text.hasPrefix("."), let target = resolve(specifier.text, from: path)
            else { continue }
            out.append(Reference(path: target, line: specifier.line, isScript: true, isModule: true))
        }
        return out
    }

    /// The string arguments of `importScripts(…)` in a classic worker script: URLs relative to the worker.
    static func importedScripts(tokens: JavaScriptTokens) -> [(url: String, line: Int)] {
        var out: [(String, Int)] = []
        for (index, token) in tokens.tokens.enumerated()
        where token.kind == .identifier && token.text == "importScripts" && tokens.isPunctuation(index + 1, "(") {
            for argument in tokens.arguments(at: index + 1) where argument.count == 1 {
                if let value = tokens[argument.lowerBound], value.kind == .string {
                    out.append((value.text, value.line))
                }
            }
        }
        return out
    }

    // MARK: URLs

    /// The extension path a URL in the file at `base` names, or nil for one with a scheme, a
    /// fragment alone, or one leaving the extension.
    static func resolve(_ url: String, from base: String) -> String? {
        var text = url.trimmingWhitespace()
        if let cut = text.firstIndex(where: { $0 == "?" || $0 == "#" }) { text = String(text[..<cut]) }
        guard !text.isEmpty, !text.hasPrefix("//") else { return nil }
        if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") { return nil }  // a scheme
        let decoded = percentDecoded(text)
        var parts: [Substring] = decoded.hasPrefix("/") ? [] : base.split(separator: "/").dropLast()
        for part in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
                continue
            }
            parts.append(part)
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }

    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.first {
            if byte == UInt8(ascii: "%"), utf8.count >= 3,
                let value = UInt8(String(decoding: utf8.dropFirst().prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(3)
            } else {
                bytes.append(byte)
                utf8 = utf8.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    /// Without leading and trailing spaces, tabs and line breaks.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
