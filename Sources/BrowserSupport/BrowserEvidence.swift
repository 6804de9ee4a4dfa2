import BridgeProtocol
import BridgeSystem

/// Why a browser counts as present.
public enum BrowserEvidence: Equatable, Sendable, CustomStringConvertible {
    /// Its executable is installed at this path (found on `PATH` or in a vendor's folder).
    case executable(String)
    /// Its profile folder exists (it has been started at least once).
    case profile(String)
    /// A Flatpak of it is installed (the app folder exists).
    case flatpak(String)

    public var description: String {
        switch self {
        case .executable(let path): return "executable \(path)"
        case .profile(let path): return "profile folder \(path)"
        case .flatpak(let path): return "flatpak \(path)"
        }
    }
}
