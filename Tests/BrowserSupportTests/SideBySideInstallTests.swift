import BridgeJSON
import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

/// Two bridges on one machine stay apart: their own manifests, host
/// configurations and receipts; removing one leaves the other.
@Suite struct SideBySideInstallTests {
    func options(_ tmp: TemporaryFolder, hostName: String, host: String, id: String) -> InstallOptions {
        InstallOptions(
            browsers: ["chromium", "firefox"].compactMap(BrowserCatalog.named), hostName: hostName,
            hostPath: tmp.path + "/" + host, identity: ExtensionIdentity(chromiumIDs: [id], firefoxIDs: [host + "@x"]),
            group: "group." + hostName)
    }

    @Test func twoBridges_installAndUninstallIndependently() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = Environment(["HOME": tmp.path])
        let builtIn = Installer(
            home: tmp.path,
            receiptPath: Installer.receiptPath(home: tmp.path, environment: env, hostName: "org.extensionbridge.host"))
        let other = Installer(
            home: tmp.path,
            receiptPath: Installer.receiptPath(home: tmp.path, environment: env, hostName: "com.example.app"))
        #expect(builtIn.receiptPath != other.receiptPath)
        let a = options(
            tmp, hostName: "org.extensionbridge.host", host: "bin/extension-bridge-host",
            id: String(repeating: "a", count: 32))
        var b = options(
            tmp, hostName: "com.example.app", host: "hosts/com.example.app/app-host",
            id: String(repeating: "b", count: 32))
        b.hostBinary = Array("#!/bin/sh\n".utf8)
        _ = try builtIn.apply(try builtIn.plan(a), bridge: .init(hostName: a.hostName, identity: a.identity))
        _ = try other.apply(try other.plan(b), bridge: .init(hostName: b.hostName, identity: b.identity))
        #expect(try FileSystem.status(tmp.path + "/hosts/com.example.app/app-host")?.permissions == 0o755)
        let bridges = Installer.installedBridges(
            receiptsFolder: Installer.receiptsFolder(home: tmp.path, environment: env))
        #expect(bridges.map(\.hostName) == ["com.example.app"])
        #expect(bridges.first?.identity.chromiumIDs == [String(repeating: "b", count: 32)])
        let removed = try other.uninstall(browsers: nil, folderPrefix: nil)
        #expect(removed.allSatisfy { $0.1 == .removed })
        #expect(removed.count == 4)
        #expect(try FileSystem.status(tmp.path + "/hosts/com.example.app") == nil, "its host folder goes too")
        #expect(try FileSystem.status(other.receiptPath) == nil, "and its receipt")
        // The built-in bridge is untouched.
        #expect(
            try FileSystem.status(tmp.path + "/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json")
                != nil)
        #expect(try FileSystem.status(tmp.path + "/bin/extension-bridge-host.conf") != nil)
        #expect(builtIn.loadBridge()?.hostName == "org.extensionbridge.host")
    }
}
