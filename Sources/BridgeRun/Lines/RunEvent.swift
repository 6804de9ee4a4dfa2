import BridgeProtocol

/// One thing `run` reports in the terminal.
public enum RunEvent: Equatable, Sendable {
    /// A host's record: a message, a log line, its start or end.
    case host(TraceRecord)
    /// A line from the extension's code.
    case console(ConsoleMessage)
    /// What `run` itself did (started the browser, reloaded the extension, rebuilt the host).
    case status(String)
    /// Something that went wrong, and what to do (a build error, a refused reload).
    case problem(String)
    /// A line of a build's output.
    case build(String)
}
