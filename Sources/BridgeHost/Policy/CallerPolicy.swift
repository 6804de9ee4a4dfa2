import BridgeSystem

/// The callers the host serves: origins (`chrome-extension://ID/`) and
/// Firefox add-on ids.
///
/// Source, in order: `EXTENSION_BRIDGE_ALLOWED_CALLERS` (comma-separated;
/// replaces the file), else `extension-bridge-host.allowed` beside the host
/// binary (one entry a line, `#` comments), written by `extension-bridge install`.
public struct CallerPolicy: Equatable, Sendable {
    /// The allowlist file's name, beside the host binary.
    public static let fileName = "extension-bridge-host.allowed"

    public var allowed: Set<String>
    /// Where the list came from, for messages.
    public var source: String

    public init(allowed: Set<String>, source: String) {
        self.allowed = allowed
        self.source = source
    }

    /// Parses an allowlist: entries separated by newlines or commas, `#` comments.
    public static func parse(_ text: String) -> Set<String> {
        var out = Set<String>()
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            for entry in content.split(separator: ",") {
                let trimmed = entry.trimmingCharacters(in: " \t")
                guard !trimmed.isEmpty else { continue }
                out.insert(trimmed.hasPrefix("chrome-extension://") ? Caller.normalizedOrigin(trimmed) : trimmed)
            }
        }
        return out
    }

    /// Loads the policy from the environment or the file beside `executablePath`.
    public static func load(environment: Environment, executablePath: String?) -> CallerPolicy {
        if let list = environment["EXTENSION_BRIDGE_ALLOWED_CALLERS"] {
            return CallerPolicy(allowed: parse(list), source: "EXTENSION_BRIDGE_ALLOWED_CALLERS")
        }
        guard let executablePath else { return CallerPolicy(allowed: [], source: "no allowlist") }
        let path = FileSystem.parentPath(executablePath) + "/" + fileName
        guard let bytes = try? FileSystem.readFile(path, limit: 1 << 20) else {
            return CallerPolicy(allowed: [], source: "missing \(path)")
        }
        return CallerPolicy(allowed: parse(String(decoding: bytes, as: UTF8.self)), source: path)
    }

    /// True when `caller` may use the host.
    public func allows(_ caller: Caller) -> Bool { allowed.contains(caller.identity) }
}

extension StringProtocol {
    /// The text without leading and trailing characters from `set`.
    func trimmingCharacters(in set: String) -> String {
        var slice = Substring(self)
        while let f = slice.first, set.contains(f) { slice.removeFirst() }
        while let l = slice.last, set.contains(l) { slice.removeLast() }
        return String(slice)
    }
}
