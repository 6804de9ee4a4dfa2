import BridgeJSON

/// What a browser's debugger client asks the session to do, or tells it.
public enum DebuggerEffect: Equatable, Sendable {
    /// Write this message to the browser.
    case send(JSONValue)
    /// A line from the extension's code.
    case console(ConsoleMessage)
    /// The extension is loaded: a page opened now runs its content scripts.
    case ready
    /// The extension was reloaded from its folder, and this many web pages with it.
    case reloaded(pages: Int)
    /// Something the browser refused or reported, for the person (run's own line).
    case problem(String)
}

/// A client of one browser's debugging protocol, as a state machine: the session
/// hands it each decoded message and carries out the effects. Nothing here does I/O,
/// so a recorded conversation replays in a unit test.
public protocol BrowserDebugger: AnyObject {
    /// What to send once connected (Firefox speaks first: nothing until its greeting).
    func start() -> [DebuggerEffect]
    /// One message from the browser.
    func handle(_ message: JSONValue) -> [DebuggerEffect]
    /// Opens `url` in the first tab.
    func open(url: String) -> [DebuggerEffect]
    /// Reloads the extension from its folder, then the web pages that are open.
    func reloadExtension() -> [DebuggerEffect]
    /// Asks the browser to close (what cannot be asked is ended by signal).
    func close() -> [DebuggerEffect]
}

extension ConsoleMessage {
    /// At most this many characters of a console line are shown.
    static let maximumTextCharacters = 2000

    /// `text` cut to `maximumTextCharacters`, on one line: the first line of a stack, say.
    static func oneLine(_ text: String) -> String {
        let first = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let cut = first.prefix(maximumTextCharacters)
        return cut.count < first.count ? cut + "…" : String(cut)
    }
}

/// True for the pages content scripts run in and `run` reloads after the extension.
func isWebPage(_ url: String) -> Bool {
    url.hasPrefix("http://") || url.hasPrefix("https://") || url.hasPrefix("file://")
}
