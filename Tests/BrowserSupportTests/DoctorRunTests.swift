import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

/// `DoctorRun`: which bridges and browsers doctor looks at, and its exit status.
@Suite struct DoctorRunTests {
    let identity = ExtensionIdentity(chromiumIDs: [String(repeating: "a", count: 32)], firefoxIDs: ["x@y"])

    /// A run for an empty HOME on a machine with no browser (an empty detection root, no PATH).
    func run(_ tmp: TemporaryFolder, named: Bool = false) throws -> DoctorRun {
        try FileManager.default.createDirectory(atPath: tmp.path + "/home", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: tmp.path + "/root", withIntermediateDirectories: true)
        let environment = Environment([
            "HOME": tmp.path + "/home", "PATH": tmp.path + "/root", "EXTENSION_BRIDGE_DETECT_ROOT": tmp.path + "/root",
        ])
        return DoctorRun(
            home: tmp.path + "/home", environment: environment,
            bridge: Installer.InstalledBridge(hostName: "org.extensionbridge.host", identity: identity),
            onlyNamedBridge: named, browsers: nil, userDataDirectory: nil)
    }

    /// Installs a bridge named `hostName` for Firefox in `run`'s HOME, with its receipt.
    func install(_ hostName: String, _ run: DoctorRun) throws {
        let installer = Installer(
            home: run.home,
            receiptPath: Installer.receiptPath(home: run.home, environment: run.environment, hostName: hostName))
        let options = InstallOptions(
            browsers: BrowserCatalog.named("firefox").map { [$0] } ?? [], hostName: hostName,
            hostPath: run.home + "/bin/" + hostName, identity: identity)
        _ = try installer.apply(
            try installer.plan(options), bridge: Installer.InstalledBridge(hostName: hostName, identity: identity))
    }

    @Test func withNoBrowser_theRowSaysSo_andDoctorFails() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let checks = try run(tmp).checks()
        #expect(checks.first?.detail.hasPrefix("no browser found") == true)
        #expect(checks.first?.fix?.hasSuffix("install --crx") == true)
        #expect(DoctorRun.exitStatus(checks) == 1)
    }

    @Test func exitStatus_failsOnErrorsOnly() {
        func row(_ status: DoctorCheck.Status) -> DoctorCheck {
            DoctorCheck(browser: "chromium", scope: "user", path: "/p", status: status, detail: "", fix: nil)
        }
        #expect(DoctorRun.exitStatus([row(.ok), row(.warning), row(.absent)]) == 0)
        #expect(DoctorRun.exitStatus([row(.ok), row(.error)]) == 1)
    }

    @Test func everyInstalledBridge_isChecked_unlessOneIsNamed() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        var doctor = try run(tmp)
        #expect(doctor.bridges().map(\.hostName) == ["org.extensionbridge.host"])
        try install("com.example.a", doctor)
        // Only another bridge is installed: the built-in one is not reported missing.
        #expect(doctor.bridges().map(\.hostName) == ["com.example.a"])
        try install("org.extensionbridge.host", doctor)
        #expect(doctor.bridges().map(\.hostName) == ["org.extensionbridge.host", "com.example.a"])
        doctor.onlyNamedBridge = true
        #expect(doctor.bridges().map(\.hostName) == ["org.extensionbridge.host"])
    }

    @Test func aBrowserInstalledFor_isChecked_thoughItsExecutableIsNotFound() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        var doctor = try run(tmp)
        #expect(doctor.selectedBrowsers(hostName: "com.example.a").isEmpty)
        try install("com.example.a", doctor)
        #expect(doctor.selectedBrowsers(hostName: "com.example.a").map(\.id) == ["firefox"])
        doctor.browsers = BrowserCatalog.named("chromium").map { [$0] }
        #expect(doctor.selectedBrowsers(hostName: "com.example.a").map(\.id) == ["chromium"])
    }

    @Test func fixLines_nameTheBridgeAsItWasInstalled() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let doctor = try run(tmp)
        #expect(doctor.doctor(for: doctor.bridge).bridgeArguments == "")
        let other = Installer.InstalledBridge(hostName: "com.example.a", identity: identity)
        #expect(doctor.doctor(for: other).bridgeArguments == " --host-name com.example.a")
        let project = Installer.InstalledBridge(
            hostName: "com.example.a", identity: identity, configPath: tmp.path + "/p q/bridge.json")
        #expect(doctor.doctor(for: project).bridgeArguments == " --config '\(tmp.path)/p q/bridge.json'")
    }

    /// No extension folder: a row first, an error while no install recorded the ids, then the rest.
    @Test func aMissingExtensionFolder_isARow_andTheOtherChecksStillRun() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        var doctor = try run(tmp)
        doctor.extensionFolderProblem = "no extension folder found (looked in extension)"
        doctor.bridge.identity = ExtensionIdentity(chromiumIDs: [], firefoxIDs: [])
        let checks = doctor.checks()
        #expect(checks.first?.scope == "extension")
        #expect(checks.first?.status == .error)
        #expect(checks.first?.fix?.contains("doctor --extension-dir DIR`") == true)
        #expect(checks.dropFirst().first?.detail.hasPrefix("no browser found") == true)
        try install("org.extensionbridge.host", doctor)
        let receipt = Installer.defaultReceiptPath(home: doctor.home, environment: doctor.environment)
        doctor.bridge.identity = DoctorRun.recordedIdentity(receiptPath: receipt)
        #expect(doctor.bridge.identity == identity)
        #expect(doctor.checks().first?.status == .warning)
    }

    /// Makes `browser`'s program exist under the run's detection root, so it is detected.
    func detect(_ program: String, _ tmp: TemporaryFolder) throws {
        try FileManager.default.createDirectory(atPath: tmp.path + "/root/usr/bin", withIntermediateDirectories: true)
        try #require(
            FileManager.default.createFile(
                atPath: tmp.path + "/root/usr/bin/" + program, contents: Data("#!/bin/sh\n".utf8),
                attributes: [.posixPermissions: 0o755]))
    }

    /// Writes `text` as `browser`'s manifest of the built-in host in the folder of `scope`, under the
    /// run's detection root for the system folder; returns its path.
    @discardableResult
    func manifest(
        _ browserID: String, _ scope: HostLocation.Scope, _ run: DoctorRun, text: String = "{}"
    ) throws -> String {
        let browser = try #require(BrowserCatalog.named(browserID))
        let location = try #require(
            HostLocation.all(for: browser, home: run.home, systemRoot: run.systemRoot).first { $0.scope == scope })
        try FileManager.default.createDirectory(atPath: location.folder, withIntermediateDirectories: true)
        let path = location.manifestPath(hostName: run.bridge.hostName)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A system manifest the user's shadows is never read, so it cannot refuse the connection: a
    /// warning that names the manifest used, never an error; and a file the Debian package owns is
    /// never to be removed by hand: the fix removes the per-user install instead.
    @Test func aShadowedSystemManifest_isAWarning_andAPackagesFileIsNotRemoved() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let run = try run(tmp)
        try detect("chromium", tmp)
        let user = try manifest("chromium", .user, run)
        let system = try manifest("chromium", .system, run, text: "{\"name\": \"another\"}")
        func systemRow() -> DoctorCheck? {
            run.checks().first { $0.browser == "chromium" && $0.scope == "system" }
        }
        let own = try #require(systemRow())
        #expect(own.status == .warning, "\(own)")
        #expect(own.detail.contains("cannot refuse the connection"))
        #expect(own.detail.contains("shadowed by \(user), which the browser reads first and uses"))
        #expect(own.fix?.hasPrefix("rm \(system.shellQuoted)") == true, "\(own)")
        // The package's: dpkg lists it.
        let list = tmp.path + "/root/var/lib/dpkg/info/extension-bridge.list"
        try FileManager.default.createDirectory(
            atPath: FileSystem.parentPath(list), withIntermediateDirectories: true)
        try (String(system.dropFirst(run.systemRoot.count)) + "\n").write(
            toFile: list, atomically: true, encoding: .utf8)
        let packaged = try #require(systemRow())
        #expect(packaged.status == .warning)
        #expect(packaged.fix?.contains("rm ") == false, "\(packaged)")
        #expect(packaged.fix?.hasPrefix("extension-bridge uninstall --browser chromium") == true, "\(packaged)")
    }

    /// The Debian package places a system manifest for every browser it knows; one whose program is
    /// not on this machine (and that this user never installed for) is not checked, so it has no row
    /// whose fix cannot exist.
    @Test func aBrowserWithOnlyASystemManifest_andNoProgram_isNotChecked() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let run = try run(tmp)
        try detect("chromium", tmp)
        try manifest("chrome", .system, run)
        try manifest("chromium", .system, run)
        #expect(run.selectedBrowsers(hostName: run.bridge.hostName).map(\.id) == ["chromium"])
        #expect(!run.checks().contains { $0.browser == "chrome" })
        try manifest("chrome", .user, run)
        #expect(run.selectedBrowsers(hostName: run.bridge.hostName).map(\.id) == ["chrome", "chromium"])
    }
}
