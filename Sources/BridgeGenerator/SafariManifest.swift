import BridgeJSON

/// Reading an imported extension's `manifest.json` as the browsers do, not
/// as strict JSON: Safari and Chromium accept trailing commas, Chromium and
/// Firefox accept `//` and `/* */` comments. Those are removed (the manifest
/// is written back as plain JSON); anything else that is not JSON is refused
/// with its line and column.
enum SafariManifest {
    /// The manifest's object, and what was tolerated (for the report).
    /// - Throws: `GeneratorError.invalid` (65) naming the line and column of the first error, or
    ///   saying the manifest is not an object.
    static func parse(_ bytes: [UInt8]) throws(GeneratorError) -> (
        object: [String: JSONValue], tolerated: [String], duplicates: [DuplicateKey]
    ) {
        var (cleaned, commas, comments) = relaxed(bytes)
        if cleaned.starts(with: [0xEF, 0xBB, 0xBF]) { cleaned.replaceSubrange(0..<3, with: [0x20, 0x20, 0x20]) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(cleaned)
        } catch {
            let offset: Int
            switch error {
            case .syntax(let at, _), .invalidUTF8(let at), .notAsWritten(let at, _): offset = at
            case .tooDeep: offset = 0
            }
            let (line, column) = position(of: offset, in: bytes)
            throw .invalid(
                "manifest.json is not JSON at line \(line), column \(column): \(error); fix it there (Safari, "
                    + "Chromium and Firefox accept trailing commas and comments, nothing else)")
        }
        guard case .object(let object) = value else {
            throw .invalid("manifest.json is not a JSON object (it is a \(value.typeName))")
        }
        var tolerated: [String] = []
        if commas > 0 { tolerated.append("\(commas) trailing comma\(commas == 1 ? "" : "s")") }
        if comments > 0 { tolerated.append("\(comments) comment\(comments == 1 ? "" : "s")") }
        let duplicates = duplicateKeys(in: cleaned).map { found in
            DuplicateKey(path: found.path, line: position(of: found.offset, in: bytes).line)
        }
        return (object, tolerated, duplicates)
    }

    /// A key an object of the manifest has more than once. Chromium and Firefox keep its last
    /// value and drop the others without a word, and so does the parser; the import says so.
    struct DuplicateKey: Equatable, Sendable {
        /// The key, with the keys of the objects around it (`background.scripts`).
        var path: String
        /// The line of its last occurrence (the value kept).
        var line: Int
    }

    /// Every repeated key of the JSON text `bytes` (valid JSON, comments and trailing commas already
    /// blanked), with the byte offset of each repeat, in order.
    static func duplicateKeys(in bytes: [UInt8]) -> [(path: String, offset: Int)] {
        struct Frame {
            var path: String
            var isObject: Bool
            var keys: Set<String> = []
            var key = ""
            var expectingKey = true
        }
        var stack: [Frame] = []
        var found: [(path: String, offset: Int)] = []
        var index = 0
        func childPath() -> String {
            guard let top = stack.last else { return "" }
            let name = top.isObject ? top.key : "[]"
            return top.path.isEmpty ? name : top.path + (top.isObject ? "." : "") + name
        }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < bytes.count && bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                if let top = stack.last, top.isObject, top.expectingKey {
                    let token = Array(bytes[index...min(end, bytes.count - 1)])
                    let key = (try? JSONParser.parse(token))?.stringValue ?? String(decoding: token, as: UTF8.self)
                    if !stack[stack.count - 1].keys.insert(key).inserted {
                        found.append(((top.path.isEmpty ? "" : top.path + ".") + key, index))
                    }
                    stack[stack.count - 1].key = key
                    stack[stack.count - 1].expectingKey = false
                }
                index = end
            case UInt8(ascii: "{"): stack.append(Frame(path: childPath(), isObject: true))
            case UInt8(ascii: "["): stack.append(Frame(path: childPath(), isObject: false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = stack.popLast()
            case UInt8(ascii: ","): if stack.last?.isObject == true { stack[stack.count - 1].expectingKey = true }
            default: break
            }
            index += 1
        }
        return found
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let before = bytes.prefix(max(0, min(offset, bytes.count)))
        let line = before.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = String(decoding: before[lineStart...], as: UTF8.self).count + 1
        return (line, column)
    }

    /// The manifest with comments and trailing commas blanked out (spaces, newlines kept), so a
    /// strict parser's byte offsets are still the author's; and how many of each there were.
    static func relaxed(_ bytes: [UInt8]) -> (bytes: [UInt8], commas: Int, comments: Int) {
        var out = bytes
        var commas = 0
        var comments = 0
        var index = 0
        var inString = false
        var pendingComma: Int?
        func blank(_ range: Range<Int>) {
            for i in range where out[i] != 0x0A { out[i] = 0x20 }
        }
        while index < out.count {
            let byte = out[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            let next = index + 1 < out.count ? out[index + 1] : 0
            if byte == UInt8(ascii: "/") && (next == UInt8(ascii: "/") || next == UInt8(ascii: "*")) {
                let end: Int
                if next == UInt8(ascii: "/") {
                    end = out[index...].firstIndex(of: 0x0A) ?? out.count
                } else {
                    var i = index + 2
                    while i + 1 < out.count && !(out[i] == UInt8(ascii: "*") && out[i + 1] == UInt8(ascii: "/")) {
                        i += 1
                    }
                    end = min(i + 2, out.count)
                }
                blank(index..<end)
                comments += 1
                index = end
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                pendingComma = nil
            case UInt8(ascii: ","): pendingComma = index
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if let comma = pendingComma {
                    out[comma] = 0x20
                    commas += 1
                }
                pendingComma = nil
            case 0x20, 0x09, 0x0A, 0x0D: break
            default: pendingComma = nil
            }
            index += 1
        }
        return (out, commas, comments)
    }
}
