/// A list of callers: entries separated by newlines or commas, `#` comments
/// to the end of the line, blanks around entries ignored, Chromium origins
/// normalised. The format of `EXTENSION_BRIDGE_ALLOWED_CALLERS` and of the
/// legacy allowlist file.
public enum AllowList {
    public static func parse(_ text: String) -> [String] {
        var out: [String] = []
        var entry: [UInt8] = []
        var inComment = false
        func finish() {
            while let last = entry.last, last == 0x20 || last == 0x09 { entry.removeLast() }
            var start = 0
            while start < entry.count, entry[start] == 0x20 || entry[start] == 0x09 { start += 1 }
            if start < entry.count {
                var value = String(decoding: entry[start...], as: UTF8.self)
                if value.hasPrefix(ExtensionOrigin.chromiumScheme) { value = ExtensionOrigin.normalized(value) }
                if !out.contains(value) { out.append(value) }
            }
            entry.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            switch byte {
            case 0x0A, 0x0D:
                finish()
                inComment = false
            case UInt8(ascii: "#"):
                finish()
                inComment = true
            case UInt8(ascii: ","):
                if !inComment { finish() }
            default:
                if !inComment { entry.append(byte) }
            }
        }
        finish()
        return out
    }
}
