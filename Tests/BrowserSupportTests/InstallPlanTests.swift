import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

/// `InstallPlan`: what one `install` writes, where, and what it says afterwards.
@Suite struct InstallPlanTests {
    func plan(_ tmp: TemporaryFolder, _ browsers: [String], destination: String? = nil) -> InstallPlan {
        let options = InstallOptions(
            browsers: browsers.compactMap(BrowserCatalog.named), hostPath: tmp.path + "/bin/extension-bridge-host",
            identity: ExtensionIdentity(chromiumIDs: [String(repeating: "a", count: 32)], firefoxIDs: ["x@y"]))
        return InstallPlan(
            installer: Installer(home: tmp.path, receiptPath: tmp.path + "/receipt.json"), options: options,
            destination: destination)
    }

    @Test func aStagedInstall_writesUnderTheDestination_andKeepsNoReceipt() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let staged = plan(tmp, ["chromium"], destination: tmp.path + "/stage")
        let files = try staged.files()
        #expect(files.allSatisfy { $0.path.hasPrefix(tmp.path + "/stage" + tmp.path) })
        let results = try staged.apply()
        #expect(results.map(\.1).allSatisfy { $0 == .written })
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/receipt.json"))
        #expect(
            staged.closingLines(results: results, tool: "extension-bridge")
                == ["staged the system install under \(tmp.path)/stage (no receipt: the package owns the files)"])
    }

    @Test func anInstall_saysWhatChanged_andNamesTheToolItWasGiven() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let install = plan(tmp, ["chromium", "firefox"])
        let first = try install.apply()
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/receipt.json"))
        #expect(
            install.closingLines(results: first, tool: "'/opt/x/extension-bridge'")
                == ["installed the host for chromium, firefox; check with `'/opt/x/extension-bridge' doctor`"])
        let second = try install.apply()
        #expect(
            install.closingLines(results: second, tool: "extension-bridge") == ["already installed: nothing changed"])
    }

    @Test func aPackedExtension_isAllowedByTheHost_andSaidPerBrowser() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        var install = plan(tmp, ["chromium", "chrome", "firefox"])
        let id = String(repeating: "b", count: 32)
        install.add(PackedExtension(crx: [1, 2, 3], crxPath: tmp.path + "/x.crx", chromiumID: id, version: "1.0"))
        install.add(PackedExtension(crx: [1, 2, 3], crxPath: tmp.path + "/x.crx", chromiumID: id, version: "1.0"))
        #expect(install.options.identity.chromiumIDs == [String(repeating: "a", count: 32), id])
        #expect(try install.files().contains { $0.path == tmp.path + "/x.crx" })
        let lines = install.packedLines(try #require(install.options.packedExtension))
        #expect(lines.count == 3)
        #expect(
            lines[0].hasPrefix("Chromium: the extension (id \(id), version 1.0) installs at the browser's next start"))
        #expect(lines[1].hasPrefix("Google Chrome: installs extensions only from the Chrome Web Store"))
        #expect(lines[2].hasPrefix("Firefox: installs only add-ons signed by Mozilla"))
    }

    @Test func check_refusesAFileThatIsNotOurs_beforeAnythingIsWritten() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let install = plan(tmp, ["chromium"])
        let manifest = tmp.path + "/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json"
        try FileManager.default.createDirectory(
            atPath: FileSystem.parentPath(manifest), withIntermediateDirectories: true)
        try FileSystem.writeAtomically(manifest, utf8: "{\"name\": \"someone else's\"}", permissions: 0o644)
        #expect(throws: InstallError.self) { try install.check() }
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/receipt.json"))
    }
}
