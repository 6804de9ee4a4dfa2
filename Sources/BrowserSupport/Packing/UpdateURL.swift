/// The https folder a self-hosted extension is served from (`--update-url
/// BASE`): the update manifests and packages are `BASE/updates.xml`,
/// `BASE/updates.json`, `BASE/<file>.crx`, `BASE/<file>.xpi`.
///
/// Checked, because it goes into manifests, XML and JSON: `https://`, a
/// host, ASCII without whitespace, controls, quotes, `<>\^{}|` or a
/// backtick, no `user@` and no `?` or `#` (files are appended to it). A
/// trailing `/` is dropped.
public struct UpdateURL: Equatable, Sendable, CustomStringConvertible {
    /// The base, without a trailing `/`.
    public let base: String

    /// The longest URL accepted, in bytes.
    public static let maximumLength = 2_000

    /// Checks `text` and keeps it as the base.
    /// - Throws: `PackError.invalidUpdateURL` naming the rule it breaks (exit 64).
    public init(_ text: String) throws(PackError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= UpdateURL.maximumLength else {
            throw .invalidUpdateURL(String(text.prefix(80)) + "…", reason: "longer than 2,000 bytes")
        }
        if let bad = bytes.first(where: { $0 <= 0x20 || $0 >= 0x7F }) {
            let what =
                bad == 0x20
                ? "a space" : bad >= 0x80 ? "a non-ASCII character (percent-encode it)" : "a control character"
            throw .invalidUpdateURL(text, reason: "it contains \(what)")
        }
        if let bad = bytes.first(where: { Array("\"'<>\\^`{|}".utf8).contains($0) }) {
            throw .invalidUpdateURL(text, reason: "it contains \(Character(Unicode.Scalar(bad)))")
        }
        guard text.hasPrefix("https://") else {
            throw .invalidUpdateURL(text, reason: "it is not https:// (browsers fetch updates over https only)")
        }
        if text.contains("?") || text.contains("#") {
            throw .invalidUpdateURL(text, reason: "it has a query or fragment (file names are appended to it)")
        }
        var base = text
        while base.hasSuffix("/") { base.removeLast() }
        let rest = base.dropFirst("https://".count)
        let authority = rest.prefix { $0 != "/" }
        guard !authority.isEmpty, !authority.hasPrefix(":") else {
            throw .invalidUpdateURL(text, reason: "it has no host")
        }
        if authority.contains("@") {
            throw .invalidUpdateURL(text, reason: "it carries a user name or password (they would be published)")
        }
        if rest.split(separator: "/", omittingEmptySubsequences: false).contains(where: { $0 == "." || $0 == ".." }) {
            throw .invalidUpdateURL(text, reason: "it has a '.' or '..' segment")
        }
        self.base = base
    }

    /// The URL of `file` in this folder.
    public func file(_ name: String) -> String { base + "/" + name }

    public var description: String { base }
}
