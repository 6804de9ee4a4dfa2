import Foundation
import TestSupport
import Testing

/// `extension-bridge new` takes its ExtensionBridge source only from where it
/// may trust it.
@Suite struct GeneratorTrustTests {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// A folder `new` would take for ExtensionBridge's source: a `Package.swift`
    /// naming it, an extension and the libraries a project carries (copies of this checkout's).
    func plantSource(at folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "// planted\nlet package = Package(name: \"ExtensionBridge\")\n".write(
            toFile: folder + "/Package.swift", atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: repository + "/extension", toPath: folder + "/extension")
        try FileManager.default.copyItem(atPath: repository + "/Sources", toPath: folder + "/Sources")
    }

    /// The CLI copied to `prefix/bin`, as an unpacked release or a build in /tmp would be.
    func cli(in prefix: String) throws -> String {
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Binaries.cli, toPath: prefix + "/bin/extension-bridge")
        return prefix + "/bin/extension-bridge"
    }

    func new(_ cli: String, _ tmp: TemporaryFolder, _ extra: [String] = []) throws -> Finished {
        try runProcess(
            cli,
            ["new", "App", "--host-name", "com.example.app", "--group", "group.com.example.app", "--dry-run"] + extra,
            environment: ["HOME": tmp.path, "PATH": "/usr/bin:/bin"])
    }

    /// The Debian package's layout: `/usr/bin/extension-bridge` and no source anywhere. `new` is
    /// refused, saying the package has no sources and naming the option and variable that give one.
    @Test func noSourceAnywhere_asWithTheDebianPackageAlone_isRefusedNamingTheWayForward() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let cli = try cli(in: tmp.path + "/usr")
        let refused = try new(cli, tmp)
        #expect(refused.status == 66, "\(refused.stderr)")
        #expect(refused.stderr.contains("looked in \(tmp.path)/usr/share/extension-bridge/source"), "\(refused.stderr)")
        #expect(refused.stderr.contains("the Debian package does not include"), "\(refused.stderr)")
        #expect(refused.stderr.contains("--package-path DIR"), "\(refused.stderr)")
        #expect(refused.stderr.contains("EXTENSION_BRIDGE_SOURCE"), "\(refused.stderr)")
        #expect(refused.outText.isEmpty && !FileManager.default.fileExists(atPath: tmp.path + "/App"))
        let given = try new(cli, tmp, ["--package-path", repository])
        #expect(given.status == 0, "\(given.stderr)")
    }

    @Test func aPlantedSourceAboveTheBinary_writableByOthers_isRefused() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        // The binary in tmp/shared/prefix/bin; tmp/shared is a /tmp-like folder anyone may write to.
        let shared = tmp.path + "/shared"
        let cli = try cli(in: shared + "/prefix")
        try plantSource(at: shared)
        chmod(shared, 0o1777)
        let refused = try new(cli, tmp)
        #expect(refused.status == 77, "\(refused.stderr)")
        #expect(refused.stderr.contains("refusing the ExtensionBridge source found at \(shared)"))
        #expect(refused.stderr.contains("writable by every user"))
        #expect(refused.stderr.contains("--package-path"))
        // The same as an explicit choice is the person's to make.
        let explicit = try new(cli, tmp, ["--package-path", repository])
        #expect(explicit.status == 0, "\(explicit.stderr)")
    }

    @Test func aPlantedInstalledCopy_groupWritableOrAnotherUsers_isRefused() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let prefix = tmp.path + "/prefix"
        let cli = try cli(in: prefix)
        let source = prefix + "/share/extension-bridge/source"
        try plantSource(at: source)
        // Writable by a group others belong to (nogroup, whose member is nobody): refused. (The owner's
        // private group, a umask of 002's doing, is harmless: BrowserSupportTests/PathTrustTests.)
        chmod(source + "/Package.swift", 0o664)
        if getuid() == 0 { chown(source + "/Package.swift", 0, 65534) }
        let groupWritable = try new(cli, tmp)
        if getuid() == 0 {
            #expect(groupWritable.status == 77, "\(groupWritable.stderr)")
            #expect(groupWritable.stderr.contains("Package.swift is writable by its group"))
        }
        chmod(source + "/Package.swift", 0o644)
        if getuid() == 0 {
            // Root can give the file away: another user's source is refused too.
            chown(source + "/extension/manifest.json", 65534, 65534)
            let foreign = try new(cli, tmp)
            #expect(foreign.status == 77, "\(foreign.stderr)")
            #expect(foreign.stderr.contains("belongs to another user"))
            chown(source + "/extension/manifest.json", 0, 0)
        }
        let trusted = try new(cli, tmp)
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(trusted.outText.contains("would write"))
    }
}
