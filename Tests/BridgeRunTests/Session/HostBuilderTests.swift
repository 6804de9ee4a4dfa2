import BridgeSystem
import BrowserSupport
import TestSupport
import Testing

@testable import BridgeRun

@Suite struct HostBuilderTests {
    func tree(_ root: String) -> SourceTree {
        SourceTree.scan(SourceTree.Rule(root: root, includes: { $0.hasSuffix(".swift") }, skippedFolders: []))
    }

    @Test func aHostMissingOrOlderThanASource_isStale_andANewerOneIsNot() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.makeDirectories(tmp.path + "/src")
        try FileSystem.writeAtomically(tmp.path + "/src/a.swift", utf8: "1")
        #expect(HostBuilder.isStale(tmp.path + "/host", sources: tree(tmp.path + "/src")))
        Platform.sleep(milliseconds: 20)
        try FileSystem.writeAtomically(tmp.path + "/host", utf8: "built", permissions: 0o755)
        #expect(!HostBuilder.isStale(tmp.path + "/host", sources: tree(tmp.path + "/src")))
        Platform.sleep(milliseconds: 20)
        try FileSystem.writeAtomically(tmp.path + "/src/a.swift", utf8: "2")
        #expect(HostBuilder.isStale(tmp.path + "/host", sources: tree(tmp.path + "/src")))
    }

    /// The Swift driver leaves empty `TemporaryDirectory.*` folders in its TMPDIR on every call (as
    /// this `swift` does): asking where the host is, at every start, leaves them in run's folder,
    /// removed at the end. A build keeps the user's TMPDIR, where SwiftPM's lock on `.build` is
    /// (with another, a build beside the user's own fails: "database is locked").
    @Test func askingWhereTheHostIs_leavesNothingInTheUsersTMPDIR_andABuildKeepsIt() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let userTemporary = tmp.path + "/user-tmp"
        try FileSystem.makeDirectories(userTemporary)
        try FileSystem.makeDirectories(tmp.path + "/bin")
        try FileSystem.writeAtomically(
            tmp.path + "/bin/swift",
            utf8: "#!/bin/sh\nmktemp -d \"${TMPDIR:-/tmp}/TemporaryDirectory.XXXXXX\" >/dev/null || exit 9\n"
                + "echo \"$TMPDIR\"\n", permissions: 0o755)
        let project = RunProject(
            kind: .generated, name: "P", folder: tmp.path, extensionFolder: tmp.path + "/extension",
            hostName: "com.example.p", hostProduct: "p-host", group: "group.com.example.p", chromiumID: "",
            firefoxID: "")
        let builder = HostBuilder(
            project: project, environment: ["PATH": tmp.path + "/bin:/usr/bin:/bin", "TMPDIR": userTemporary])
        let folder = try RunFolder.create(in: userTemporary)
        #expect(try builder.builtHostPath(temporaryDirectory: folder.temporary) == folder.temporary + "/p-host")
        #expect(try FileSystem.listDirectory(folder.temporary).count == 1)
        #expect(folder.remove())
        #expect(try FileSystem.listDirectory(userTemporary) == [])
        var lines: [String] = []
        try builder.buildNow { lines.append($0) }
        #expect(lines == [userTemporary])
    }

    /// A host the browser is running keeps its file; the next one starts the new one.
    @Test func install_replacesTheCopyByRename_leavingTheRunningFileWhole() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/built", utf8: "one", permissions: 0o755)
        try HostBuilder.install(tmp.path + "/built", at: tmp.path + "/host")
        let running = try FileDescriptor.openForReading(tmp.path + "/host")
        defer { running.close() }
        try FileSystem.writeAtomically(tmp.path + "/built", utf8: "two", permissions: 0o755)
        try HostBuilder.install(tmp.path + "/built", at: tmp.path + "/host")
        #expect(try FileSystem.readFile(tmp.path + "/host") == Array("two".utf8))
        #expect(try FileSystem.status(tmp.path + "/host")?.permissions == 0o700)
        var old = [UInt8](repeating: 0, count: 8)
        let n = try old.withUnsafeMutableBytes { try running.read(into: $0) }
        #expect(Array(old[0..<n]) == Array("one".utf8))
    }

    /// The static link's glibc warning reaches the person as the note `scripts/build.sh` prints, not raw.
    @Test func theStaticLinksDlopenWarning_isShownAsBuildShsNote() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.makeDirectories(tmp.path + "/scripts", permissions: 0o755)
        let warning =
            "/opt/swift/usr/lib/swift_static/linux/libswiftCore.a(LibPrespecialized.cpp.o): warning: Using 'dlopen' "
            + "in statically linked applications requires at runtime the shared libraries from the glibc version"
        try FileSystem.writeAtomically(
            tmp.path + "/scripts/release-build.sh", utf8: "#!/bin/sh\necho 'Compiling'\necho \"\(warning)\" >&2\n",
            permissions: 0o755)
        let project = RunProject(
            kind: .builtIn, name: "ExtensionBridge", folder: tmp.path, extensionFolder: tmp.path + "/extension",
            hostName: "org.extensionbridge.host", hostProduct: "extension-bridge-host",
            group: "group.org.extensionbridge.shared", chromiumID: "", firefoxID: "")
        let lines = Lines()
        try HostBuilder(project: project, environment: ["PATH": "/usr/bin:/bin"]).buildNow { lines.append($0) }
        #expect(lines.all == ["Compiling", HostBuild.dlopenNote])
    }
}

/// Lines collected from a callback.
final class Lines: @unchecked Sendable {
    private(set) var all: [String] = []
    func append(_ line: String) { all.append(line) }
}
