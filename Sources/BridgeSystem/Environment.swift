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

extension Environment {
    /// Every variable of this process, copied: for a program started with this
    /// environment changed (`extension-bridge run` starts a browser so). The host never
    /// calls it (see the type's note).
    public static func processVariables() -> [String: String] {
        var variables: [String: String] = [:]
        guard var entry = system_environ else { return variables }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return variables
    }
}

extension Platform {
    /// The first executable file named `name` in the folders of `searchPath` (`PATH`'s
    /// form, colon-separated); nil when there is none. A name with a `/` is taken as a path.
    public static func executable(named name: String, searchPath: String?) -> String? {
        if name.contains("/") { return isExecutableFile(name) ? name : nil }
        for folder in (searchPath ?? "").split(separator: ":") where folder.hasPrefix("/") {
            let candidate = folder + "/" + name
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }
}
