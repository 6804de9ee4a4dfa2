/// Read access to the process environment, passed in where code depends on it.
public struct Environment: Sendable {
    private let values: [String: String]

    /// An environment with exactly these values (tests).
    public init(_ values: [String: String]) { self.values = values }

    /// The process environment at the time of the call.
    public static func current() -> Environment {
        var values: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let eq = text.firstIndex(of: "=") {
                values[String(text[..<eq])] = String(text[text.index(after: eq)...])
            }
            pointer += 1
        }
        return Environment(values)
    }

    /// The value of `name`, or nil when it is unset or empty.
    public subscript(name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }
}

/// The one version constant reported by the host, the CLI and `hello`.
public enum BridgeVersion {
    /// The release version of ExtensionBridge.
    public static let current = "0.1.0"
    /// The native-messaging protocol version (docs/PROTOCOL.md).
    public static let protocolVersion = 1
}
