import BridgeProtocol
import BrowserSupport
import SharedSuite

/// What `extension-bridge new` was asked for, checked as the seeds' generator
/// checks its answers.
public struct ProjectSpec: Equatable, Sendable {
    /// Where the generated package gets ExtensionBridge from.
    public enum Dependency: Equatable, Sendable {
        /// A local checkout or installed copy: builds offline.
        case path(String)
        /// A published package: `.package(url:from:)`.
        case url(String, from: String)
    }

    /// The app's name: a Swift identifier (`ReadLater`).
    public var name: String
    /// The native-messaging host name (`com.example.readlater`).
    public var hostName: String
    /// The App Group id whose suite the host serves (`group.com.example.readlater`).
    public var group: String
    public var dependency: Dependency
    /// The app's version, reported by `appInfo`.
    public var version: String

    public init(name: String, hostName: String, group: String, dependency: Dependency, version: String = "1.0.0") {
        self.name = name
        self.hostName = hostName
        self.group = group
        self.dependency = dependency
        self.version = version
    }

    /// The host executable: the name in lower case, then `-host` (`readlater-host`).
    public var hostProduct: String { name.lowercased() + "-host" }
    /// The library of the app's actions (`ReadLaterActions`).
    public var actionsTarget: String { name + "Actions" }
    /// The Firefox add-on id, from the host name: `com.example.readlater` →
    /// `readlater@example.com`; a one-part name `x` → `x@extensionbridge.local`.
    public var firefoxID: String {
        let parts = hostName.split(separator: ".").map(String.init)
        guard parts.count > 1, let last = parts.last else { return hostName + "@extensionbridge.local" }
        return last + "@" + parts.dropLast().reversed().joined(separator: ".")
    }

    /// Who maintains the app's Debian package (`bridge.json`'s `maintainer`, edit it): from the
    /// host name's domain, `com.example.readlater` → `ReadLater maintainers <maintainers@example.com>`.
    public var maintainer: String {
        let parts = hostName.split(separator: ".").map(String.init)
        let domain = parts.count > 1 ? parts.dropLast().reversed().joined(separator: ".") : "example.com"
        return "\(name) maintainers <maintainers@\(domain)>"
    }

    /// Checks every answer; the message names the rule broken.
    public func validate() throws(GeneratorError) {
        let nameBytes = Array(name.utf8)
        func isLetter(_ b: UInt8) -> Bool { (b >= 65 && b <= 90) || (b >= 97 && b <= 122) }
        func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
        guard let first = nameBytes.first, isLetter(first),
            nameBytes.allSatisfy({ isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "_") }), nameBytes.count <= 64
        else {
            throw .invalid(
                "invalid name '\(name)': the name must be a Swift identifier: an ASCII letter, then letters, "
                    + "digits or '_' (at most 64), for example ReadLater")
        }
        do {
            try HostManifest.validate(name: hostName)
        } catch {
            throw .invalid(
                "invalid host name '\(hostName)': browsers allow lowercase letters, digits, '_' and dots between "
                    + "them, no leading or trailing dot (for example com.example.readlater)")
        }
        do {
            try GroupContainer.validate(groupID: group)
        } catch {
            throw .invalid(
                "invalid group '\(group)': a group id is letters, digits, '.', '-' and '_' without '/' or a "
                    + "leading dot (for example group.com.example.readlater)")
        }
        guard hostName != HostIdentity.defaultHostName else {
            throw .invalid(
                "the host name \(hostName) is the built-in bridge's; choose your own so the two install side by side")
        }
        let versionParts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(versionParts.count),
            versionParts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) })
        else { throw .invalid("invalid version '\(version)': one to four numbers separated by dots, as browsers need") }
        if case .url(let url, let from) = dependency {
            guard url.contains("://") || url.hasPrefix("git@") else {
                throw .invalid(
                    "invalid --package-url '\(url)': a git URL such as https://example.com/extension-bridge.git")
            }
            guard !from.isEmpty else { throw .usage("--package-url needs --from VERSION") }
        }
    }
}
