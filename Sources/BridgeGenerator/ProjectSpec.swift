import BridgeJSON
import BridgeProtocol
import BrowserSupport
import SharedSuite

/// What `extension-bridge new` was asked for, checked as the seeds' generator
/// checks its answers.
public struct ProjectSpec: Equatable, Sendable {
    /// Where the generated package gets ExtensionBridge from.
    public enum Dependency: Equatable, Sendable {
        /// ExtensionBridge's libraries carried in the project (`CarriedSource`), by a relative
        /// path: builds offline anywhere.
        case carried
        /// A published package, pinned: `.package(url:exact:)`.
        case url(String, exact: String)
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
    /// What the extension does (`--features`), in the canonical order; default all.
    public var features: [ExtensionFeature]
    /// The Firefox add-on id a project already has (`upgrade` keeps bridge.json's); nil: from the host name.
    public var existingFirefoxID: String?

    public init(
        name: String, hostName: String, group: String, dependency: Dependency, version: String = "1.0.0",
        features: [ExtensionFeature] = ExtensionFeature.all
    ) {
        self.name = name
        self.hostName = hostName
        self.group = group
        self.dependency = dependency
        self.version = version
        self.features = features
    }

    /// `--features LIST`: comma-separated names (`vocabulary,saving`); see `ExtensionFeature.parse`.
    /// - Throws: `GeneratorError.usage` (exit 64) naming the bad item and the known features.
    public static func features(_ list: String) throws(GeneratorError) -> [ExtensionFeature] {
        do {
            return try ExtensionFeature.parse(list)
        } catch {
            throw .usage(error.description)
        }
    }

    /// The app's one name in files, packages and executables: the name in lower case
    /// (`readlater`; `BridgeDescription.fileName`).
    public var fileName: String { name.lowercased() }
    /// The app's Debian package name: `fileName` with `_` as `-` (Debian allows no `_`).
    public var debianName: String { BridgeDescription.debianName(fileName) }
    /// The host executable: `readlater-host`.
    public var hostProduct: String { fileName + "-host" }
    /// The command-line stand-in for the app (`readlater-app`): the app's side of the suite.
    public var appProduct: String { fileName + "-app" }
    /// The library of the app's actions (`ReadLaterActions`).
    public var actionsTarget: String { name + "Actions" }
    /// The library of the app's side of the suite (`ReadLaterApp`): turn the extension on, write
    /// its settings, import what it saved.
    public var appTarget: String { name + "App" }
    /// The Safari Web Extension handler's library (`ReadLaterSafari`), compiled only where
    /// SafariServices exists.
    public var safariTarget: String { name + "Safari" }
    /// The Firefox add-on id, from the host name: `com.example.readlater` →
    /// `readlater@example.com`; a one-part name `x` → `x@extensionbridge.local`.
    public var firefoxID: String {
        if let existingFirefoxID { return existingFirefoxID }
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

    /// The package identity SwiftPM gives a `--package-url` dependency: the
    /// URL's last path component without `.git` (`…/extension-bridge.git` →
    /// `extension-bridge`); nil for the carried dependency. `validate` allows only
    /// letters, digits, `.`, `-` and `_` here, not starting with `.` or `-`.
    public var packageIdentity: String? {
        guard case .url(let url, _) = dependency else { return nil }
        var last = url.split(separator: "/").last.map(String.init) ?? ""
        if last.hasSuffix(".git") { last.removeLast(4) }
        return last
    }

    /// A URL `new` writes into `Package.swift`: printable ASCII without
    /// spaces, quotes or backslashes (still escaped when written).
    static func isPlainURL(_ url: String) -> Bool {
        !url.isEmpty && url.utf8.count <= 2048
            && url.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
    }

    /// A package identity: 1–100 of letters, digits, `.`, `-`, `_`, starting with a letter or digit.
    static func isPlainIdentity(_ identity: String) -> Bool {
        let bytes = Array(identity.utf8)
        func isAlphanumeric(_ b: UInt8) -> Bool {
            (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122)
        }
        guard let first = bytes.first, isAlphanumeric(first), bytes.count <= 100 else { return false }
        return bytes.allSatisfy {
            isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }
    }

    /// A semantic version as `.package(url:exact:)` takes it: `1.2.3`, optionally `-pre.1` and `+build`.
    static func isSemanticVersion(_ text: String) -> Bool {
        guard text.utf8.count <= 64 else { return false }
        var core = Substring(text)
        if let plus = core.firstIndex(of: "+") {
            let build = core[core.index(after: plus)...]
            guard !build.isEmpty, build.utf8.allSatisfy(isIdentifierByte) else { return false }
            core = core[..<plus]
        }
        if let dash = core.firstIndex(of: "-") {
            let pre = core[core.index(after: dash)...]
            guard !pre.isEmpty, pre.utf8.allSatisfy(isIdentifierByte) else { return false }
            core = core[..<dash]
        }
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
    }

    private static func isIdentifierByte(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == UInt8(ascii: "-")
            || b == UInt8(ascii: ".")
    }

    /// Checks every answer; the message names the rule broken.
    public func validate() throws(GeneratorError) {
        guard BridgeDescription.isAppName(name) else {
            throw .invalid(
                "invalid name '\(DisplayText.escaped(name))': the name must be \(BridgeDescription.nameRule)")
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
                "invalid group '\(DisplayText.escaped(group))': \(ProjectSpec.groupProblem(group)); a group id is "
                    + "letters, digits, '.', '-' and '_', not starting with '.' or '-' (for example "
                    + "group.com.example.readlater)")
        }
        // The app's Debian package is named after it, and a system install puts the host in /usr/lib/<host name>:
        // neither may be a name the distribution's browsers (or ExtensionBridge) already use.
        if let reason = DebianPackage.reservedUse(of: debianName) {
            throw .invalid(
                "the name \(name) cannot be used: \(reason) (pack --deb names it after the app); choose another")
        }
        if let reason = DebianPackage.reservedUse(of: hostName) {
            throw .invalid(
                "the host name \(hostName) cannot be used: \(reason) (install --system and pack --deb put the host in "
                    + "/usr/lib/\(hostName)); choose a reverse-DNS name such as com.example.readlater")
        }
        guard hostName != HostIdentity.defaultHostName else {
            throw .invalid(
                "the host name \(hostName) is the built-in bridge's; choose your own so the two install side by side")
        }
        if let existingFirefoxID, !ExtensionIdentity.isFirefoxID(existingFirefoxID) {
            throw .invalid(
                "invalid Firefox add-on id '\(DisplayText.escaped(existingFirefoxID))': name@domain or {GUID}")
        }
        let versionParts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(versionParts.count),
            versionParts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) })
        else { throw .invalid("invalid version '\(version)': one to four numbers separated by dots, as browsers need") }
        // None is an import's: its extension is the author's, not the bundled one the features are of.
        guard features == ExtensionFeature.allCases.filter(Set(features).contains) else {
            throw .invalid(
                "invalid features \(features.map(\.rawValue)): each once, in the order " + ExtensionFeature.knownNames)
        }
        if case .url(let url, let from) = dependency {
            let shown = DisplayText.escaped(url)
            guard (url.contains("://") || url.hasPrefix("git@")) && ProjectSpec.isPlainURL(url) else {
                throw .invalid(
                    "invalid --package-url '\(shown)': a git URL such as https://example.com/extension-bridge.git "
                        + "(printable ASCII, no spaces, quotes or backslashes)")
            }
            guard let identity = packageIdentity, ProjectSpec.isPlainIdentity(identity) else {
                throw .invalid(
                    "invalid --package-url '\(shown)': its last path component (the package's name, without .git) "
                        + "must be letters, digits, '.', '-' or '_', starting with a letter or digit")
            }
            guard !from.isEmpty else { throw .usage("--package-url needs --from VERSION") }
            guard ProjectSpec.isSemanticVersion(from) else {
                throw .invalid(
                    "invalid --from '\(DisplayText.escaped(from))': a semantic version such as 1.0.0 (or 1.0.0-beta.1)")
            }
        }
    }

    /// Which part of the group id rule `group` breaks, in words.
    static func groupProblem(_ group: String) -> String {
        guard let first = group.first else { return "it is empty" }
        if first == "-" { return "it starts with '-' (commands such as secret-tool would read it as an option)" }
        if first == "." { return "it starts with '.' (a hidden folder)" }
        if group.utf8.count > 200 { return "it is longer than 200 bytes" }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        if let bad = group.first(where: { !allowed.contains($0) }) {
            return "it contains '\(DisplayText.escaped(String(bad)))'"
        }
        return "it is not a group id"
    }
}
