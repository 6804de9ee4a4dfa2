/// Every environment variable of ExtensionBridge's own, in one table: code
/// reads them as `environment[EnvironmentVariable.group]`, never by a string
/// of its own, and docs/INSTALLING.md's "Environment variables" table lists the same
/// names (`EnvironmentVariableTests` checks both).
///
/// The system's variables (`HOME`, `PATH`, `XDG_DATA_HOME`, …) are not here:
/// they are the platform's names, read where the platform is described.
public enum EnvironmentVariable: String, CaseIterable, Sendable {
    /// The host: comma-separated callers allowed instead of the configuration's
    /// `allow` lines (tests and custom setups); no file is read then.
    case allowedCallers = "EXTENSION_BRIDGE_ALLOWED_CALLERS"
    /// Host and CLI: the group container folder itself, instead of the one
    /// derived from the group and `XDG_DATA_HOME`.
    case container = "EXTENSION_BRIDGE_CONTAINER"
    /// CLI: a folder every path the browser detector looks at is under (tests; a chroot).
    case detectRoot = "EXTENSION_BRIDGE_DETECT_ROOT"
    /// The host: the group whose suite it serves, over the configuration's `group`.
    case group = "EXTENSION_BRIDGE_GROUP"
    /// Host and CLI: the most bytes one queue item may have.
    case itemMaxBytes = "EXTENSION_BRIDGE_ITEM_MAX_BYTES"
    /// The host: the log level (`error`, `warn`, `info`, `debug`), over the configuration's `log`.
    case log = "EXTENSION_BRIDGE_LOG"
    /// The host: the inbound frame limit in bytes (default 64 MiB).
    case maxRequestBytes = "EXTENSION_BRIDGE_MAX_REQUEST_BYTES"
    /// Host and CLI: the most bytes the queue may hold.
    case queueMaxBytes = "EXTENSION_BRIDGE_QUEUE_MAX_BYTES"
    /// Host and CLI: the most items the queue may hold.
    case queueMaxItems = "EXTENSION_BRIDGE_QUEUE_MAX_ITEMS"
    /// Host and CLI: how long `secret-tool` may take, in milliseconds (default 30 s).
    case secretTimeoutMilliseconds = "EXTENSION_BRIDGE_SECRET_TIMEOUT_MS"
    /// Host and CLI: the `secret-tool` to run instead of the one on `PATH`.
    case secretTool = "EXTENSION_BRIDGE_SECRET_TOOL"
    /// CLI (`new`, `upgrade`): where ExtensionBridge's sources are, when `--package-path` is not given.
    case source = "EXTENSION_BRIDGE_SOURCE"
    /// The host: the socket `extension-bridge run` reads (`TraceRecord`); set in the browser it
    /// starts, so its hosts report what crosses the bridge. Unset, the host does nothing more.
    case trace = "EXTENSION_BRIDGE_TRACE"
    /// Host and CLI (`queue watch`): `poll` looks every 250 ms instead of waiting on inotify.
    case watch = "EXTENSION_BRIDGE_WATCH"
    /// The host: how long one reply may wait for a browser that stopped reading, in milliseconds (default 30 s).
    case writeTimeoutMilliseconds = "EXTENSION_BRIDGE_WRITE_TIMEOUT_MS"

    /// The variable's name.
    public var name: String { rawValue }
}
