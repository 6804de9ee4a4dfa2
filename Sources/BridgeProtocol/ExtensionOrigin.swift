/// Extension origins as Chromium spells them.
public enum ExtensionOrigin {
    /// The prefix of a Chromium extension origin.
    public static let chromiumScheme = "chrome-extension://"

    /// `chrome-extension://ID/` with exactly one trailing slash.
    public static func normalized(_ origin: String) -> String {
        // Bytes, not Characters: no grapheme breaking on a host's start-up path.
        var bytes = Array(origin.utf8)
        while bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        bytes.append(UInt8(ascii: "/"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The origin of a Chromium extension id.
    public static func chromium(id: String) -> String { chromiumScheme + id + "/" }
}
