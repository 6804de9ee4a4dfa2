import BridgeJSON
import BridgeProtocol
import BridgeSystem
import NativeMessaging

/// One line of the doctor's table.
public struct DoctorCheck: Equatable, Sendable {
    public enum Status: String, Equatable, Sendable {
        case ok
        /// Works, but something deserves a look (a shadowed manifest).
        case warning
        /// Broken: the browser cannot reach the host this way.
        case error
        /// No manifest in this folder (fine when another folder has one).
        case absent
    }

    public var browser: String
    public var scope: String
    public var path: String
    public var status: Status
    public var detail: String
    /// The command that fixes it, for warnings and errors.
    public var fix: String?
    /// True for the manifest the browser (its distribution build, not a Flatpak) actually reads:
    /// the first one found, user before system.
    public var inUse = false

    public var json: JSONValue {
        .object([
            "browser": .string(browser), "scope": .string(scope), "path": .string(path),
            "status": .string(status.rawValue), "detail": .string(detail), "fix": fix.map(JSONValue.string) ?? .null,
            "inUse": .bool(inUse),
        ])
    }
}
