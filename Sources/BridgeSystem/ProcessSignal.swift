/// A signal, by name.
public struct ProcessSignal: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let pipe = ProcessSignal(rawValue: _SIGPIPE)
    public static let terminate = ProcessSignal(rawValue: _SIGTERM)
    public static let interrupt = ProcessSignal(rawValue: _SIGINT)
    public static let hangUp = ProcessSignal(rawValue: _SIGHUP)
    public static let kill = ProcessSignal(rawValue: _SIGKILL)
    public static let fileSizeLimit = ProcessSignal(rawValue: _SIGXFSZ)
}
