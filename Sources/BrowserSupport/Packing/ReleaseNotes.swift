/// One release's section of a changelog in Keep a Changelog form (`## [0.1.0] - 2026-12-05`, then
/// `### Added` … and one `- ` line per change), as the Debian changelog of the package repeats it:
/// a packager reads the same entries as a user of the release, written once.
public struct ReleaseNotes: Equatable, Sendable {
    /// A `###` heading (`Added`, `Changed`, `Fixed`, `Security`) and its entries, in the file's order.
    public struct Group: Equatable, Sendable {
        public var heading: String
        public var entries: [String]
    }

    public var version: String
    public var groups: [Group]

    /// The section of `version` in `markdown`; an entry's continuation lines join it, code spans lose
    /// their backticks.
    /// - Throws: `PackError.debianControl` when there is no `## [version]` section or it lists no
    ///   entry: a package would say nothing of what it changed.
    public init(markdown: String, version: String) throws(PackError) {
        self.version = version
        var groups: [Group] = []
        var inSection = false
        for raw in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            if line.hasPrefix("## ") {
                inSection = line.hasPrefix("## [\(version)]")
                continue
            }
            guard inSection else { continue }
            if line.hasPrefix("### ") {
                groups.append(Group(heading: String(line.dropFirst(4)), entries: []))
            } else if line.hasPrefix("- "), !groups.isEmpty {
                groups[groups.count - 1].entries.append(Self.plain(line.dropFirst(2)))
            } else if line.hasPrefix("  "), let last = groups.indices.last,
                let entry = groups[last].entries.indices.last
            {
                groups[last].entries[entry] += " " + Self.plain(line.drop { $0 == " " })
            }
        }
        self.groups = groups.filter { !$0.entries.isEmpty }
        guard !self.groups.isEmpty else {
            throw .debianControl(
                "the changelog has no entries under '## [\(version)]'; add that release's section "
                    + "(### Added, Changed, Fixed or Security, one '- ' line per change)")
        }
    }

    /// The Debian changelog's body lines: `  * Heading`, then each entry as `    - …`, wrapped at
    /// 79 columns.
    public var debianLines: [String] {
        groups.flatMap { group in
            ["  * " + group.heading] + group.entries.flatMap { Self.wrap($0, first: "    - ", rest: "      ") }
        }
    }

    static func plain(_ text: Substring) -> String {
        String(text.filter { $0 != "`" })
    }

    static func wrap(_ text: String, first: String, rest: String) -> [String] {
        var lines: [String] = []
        var line = first
        var indent = first.count
        for word in text.split(separator: " ") {
            if line.count > indent && line.count + 1 + word.count > 79 {
                lines.append(line)
                line = rest
                indent = rest.count
            }
            line += (line.count > indent ? " " : "") + word
        }
        lines.append(line)
        return lines
    }
}
