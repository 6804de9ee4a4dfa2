/// What `run` reads in Chromium's own log (its standard error, with `--enable-logging=stderr`):
/// the line that says an unpacked extension did not load. Chromium shows that error in a dialog
/// and on chrome://extensions; headless, and over the debugging pipe, it says nothing else, so
/// without this line `run` would wait for an extension that never comes.
public enum ChromiumLog {
    /// The arguments that make Chromium write its warnings and errors to standard error.
    public static let arguments = ["--enable-logging=stderr", "--log-level=1"]

    /// What Chromium's load error reporter writes before the folder and the reason.
    static let marker = "Failed to load extension from: "

    /// The reason Chromium gives for not loading the extension in `extensionFolder`, on one line,
    /// or nil when `line` is not such a report (`… Extension error: Failed to load extension from:
    /// /path. Manifest is not valid JSON.  Line: 2, column: 1, …`).
    public static func loadError(in line: String, extensionFolder: String) -> String? {
        guard let found = line.firstRange(of: marker) else { return nil }
        var rest = Substring(line[found.upperBound...])
        // Chromium names the folder as it was given, then ". " and the reason.
        if rest.hasPrefix(extensionFolder + ".") { rest = rest.dropFirst(extensionFolder.count + 1) }
        let words = rest.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        let reason = words.joined(separator: " ")
        return reason.isEmpty ? "no reason given" : reason
    }
}
