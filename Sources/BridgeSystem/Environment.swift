/// Read access to the process environment, passed in where code depends on it.
///
/// The process environment is read name by name with `getenv`, never copied
/// whole: the host pays for start-up on every `sendNativeMessage`, and
/// copying a browser's environment into a dictionary was half its start-up work.
public struct Environment: Sendable {
    /// nil: the process environment.
    private let values: [String: String]?

    /// An environment with exactly these values (tests).
    public init(_ values: [String: String]) { self.values = values }

    private init() { values = nil }

    /// The process environment.
    public static func current() -> Environment { Environment() }

    /// The value of a variable named by a table of names (BridgeProtocol's
    /// `EnvironmentVariable`), or nil when it is unset or empty.
    public subscript<Name: RawRepresentable>(_ name: Name) -> String? where Name.RawValue == String {
        self[name.rawValue]
    }

    /// The value of `name`, or nil when it is unset or empty.
    public subscript(name: String) -> String? {
        let value: String?
        if let values {
            value = values[name]
        } else {
            value = system_getenv(name).map { String(cString: $0) }
        }
        guard let value, !value.isEmpty else { return nil }
        return value
    }
}
