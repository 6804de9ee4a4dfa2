import BridgeSystem

/// The suite's values at one moment, with typed reads like `UserDefaults`.
public struct SuiteSnapshot: Equatable, Sendable {
    /// Every key and value.
    public var values: [String: SuiteValue]
    /// The file version these values came from; nil when there is no file.
    public var identity: FileIdentity?

    public init(values: [String: SuiteValue] = [:], identity: FileIdentity? = nil) {
        self.values = values
        self.identity = identity
    }

    /// The value of `key`.
    public subscript(key: String) -> SuiteValue? { values[key] }

    /// The boolean at `key`; nil when missing or of another type.
    public func bool(_ key: String) -> Bool? {
        if case .bool(let b) = values[key] { return b }
        return nil
    }

    /// The string at `key`; nil when missing or of another type.
    public func string(_ key: String) -> String? {
        if case .string(let s) = values[key] { return s }
        return nil
    }

    /// The integer at `key`; nil when missing or of another type.
    public func int(_ key: String) -> Int? {
        if case .int(let i) = values[key] { return i }
        return nil
    }

    /// The dictionary at `key`; nil when missing or of another type.
    public func dictionary(_ key: String) -> [String: SuiteValue]? {
        if case .dictionary(let d) = values[key] { return d }
        return nil
    }
}
