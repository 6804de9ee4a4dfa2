import BridgeProtocol
import BridgeSystem

/// The files that register a host with browsers, made without touching the disk: one manifest per
/// browser folder and the host's configuration beside the host. `Installer.plan` writes them for a
/// user or the system and `DebianLayout` packages the system ones, so the two cannot disagree about
/// a byte of what the browser reads.
public enum HostRegistration {
    /// One manifest per distinct path, in `browsers` order: Chromium-family browsers allow
    /// `identity`'s origins, Firefox its add-on ids. `location` says where each browser looks.
    /// - Throws: what `location` throws.
    public static func manifests(
        hostName: String, hostPath: String, browsers: [Browser], identity: ExtensionIdentity,
        location: (Browser) throws(InstallError) -> HostLocation
    ) throws(InstallError) -> [PlannedFile] {
        var files: [PlannedFile] = []
        for browser in browsers {
            let allowed = browser.family == .chromium ? identity.chromiumOrigins : identity.firefoxIDs
            let manifest = HostManifest(name: hostName, path: hostPath, family: browser.family, allowed: allowed)
            let path = try location(browser).manifestPath(hostName: hostName)
            if !files.contains(where: { $0.path == path }) {
                files.append(PlannedFile(path: path, bytes: manifest.bytes, kind: .manifest(browser: browser.id)))
            }
        }
        return files
    }

    /// The host's configuration file beside `hostPath`: the group it serves, its log level, and
    /// every caller `identity` allows. `origin` is its first comment line (who wrote it, so who
    /// would overwrite an edit); nil: `install`.
    /// - Throws: `InstallError.invalidGroupID`, `.unsafeConfiguration` for a value the file cannot hold.
    public static func configuration(
        hostPath: String, identity: ExtensionIdentity, group: String?, logLevel: String?,
        writtenBy origin: String? = nil
    ) throws(InstallError) -> PlannedFile {
        if let group, !HostIdentity.isGroupID(group) { throw .invalidGroupID(group) }
        let configuration = HostConfiguration(
            group: group, logLevel: logLevel, allowedCallers: identity.chromiumOrigins + identity.firefoxIDs)
        let name = HostConfiguration.fileName(forExecutable: FileSystem.lastComponent(hostPath))
        let text: String
        do {
            if let origin {
                text = try configuration.text(writtenBy: origin)
            } else {
                text = try configuration.text
            }
        } catch {
            throw .unsafeConfiguration(error)
        }
        return PlannedFile(
            path: FileSystem.parentPath(hostPath) + "/" + name, bytes: Array(text.utf8), kind: .configuration)
    }
}
