import BridgeJSON

/// What a bridge's extension can do, chosen with `extension-bridge new --features`; each feature
/// brings only the permissions and manifest entries it needs (docs/GENERATOR.md). Recorded in
/// `bridge.json` (`"features"`) and in the extension's `app/app.js`.
public enum ExtensionFeature: String, CaseIterable, Sendable {
    /// Pages rewritten from the suite's vocabulary: the content scripts.
    case vocabulary
    /// The save page / link / selection menus, the Alt+Shift+S shortcut, undo, the popup's Save.
    case saving
    /// The "Transform selection with …" menu.
    case transform
    /// `getSecret` through the background, for the extension's pages.
    case secrets

    /// Every feature: what the bundled extension has, and the default.
    public static let all: [ExtensionFeature] = allCases

    /// The known names, comma-separated, for messages.
    public static var knownNames: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// Why `parse` refused a list: the message names the bad item and the known names.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// A comma-separated list of names (`vocabulary,saving`): spaces around a name are ignored, a
    /// name given twice counts once, the result is in the canonical order (`allCases`).
    /// - Throws: `ParseError` for an empty list, an empty item (`a,,b`, a trailing comma) or an
    ///   unknown name (names are lower case: `Saving` is unknown, and the message says so).
    public static func parse(_ list: String) throws(ParseError) -> [ExtensionFeature] {
        var chosen: Set<ExtensionFeature> = []
        let items = list.split(separator: ",", omittingEmptySubsequences: false)
        for item in items {
            let name = trimmed(item)
            guard !name.isEmpty else {
                throw ParseError(
                    description: list.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "," })
                        ? "--features needs at least one of: \(knownNames)"
                        : "--features '\(DisplayText.escaped(list))' has an empty item; give names separated by "
                            + "single commas, from: \(knownNames)")
            }
            guard let feature = ExtensionFeature(rawValue: name) else {
                var message = "unknown feature '\(DisplayText.escaped(name))'"
                if let lower = ExtensionFeature(rawValue: name.lowercased()) {
                    message += " (feature names are lower case: \(lower.rawValue))"
                }
                throw ParseError(description: message + "; the features are: \(knownNames)")
            }
            chosen.insert(feature)
        }
        return allCases.filter(chosen.contains)
    }

    private static func trimmed(_ item: Substring) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = item.firstIndex(where: { !isBlank($0) }), let last = item.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(item[first...last])
    }
}
