#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#else
    #error("Unsupported platform")
#endif

/// A signal, by name.
public struct ProcessSignal: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let pipe = ProcessSignal(rawValue: SIGPIPE)
    public static let terminate = ProcessSignal(rawValue: SIGTERM)
    public static let interrupt = ProcessSignal(rawValue: SIGINT)
    public static let hangUp = ProcessSignal(rawValue: SIGHUP)
    public static let kill = ProcessSignal(rawValue: SIGKILL)
    public static let fileSizeLimit = ProcessSignal(rawValue: SIGXFSZ)
}
