import BridgeJSON
import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

/// `install --crx`: the files that make a browser install the extension, and their removal.
@Suite struct InstallerPackedExtensionTests {
    let crxID = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

    func options(_ tmp: TemporaryFolder, _ browsers: [String], createdKey: Bool = true) -> InstallOptions {
        var options = InstallOptions(
            browsers: browsers.compactMap(BrowserCatalog.named), hostPath: tmp.path + "/bin/extension-bridge-host",
            identity: ExtensionIdentity(chromiumIDs: ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"], firefoxIDs: ["x@y"]))
        options.packedExtension = PackedExtension(
            crx: Array("Cr24 not really".utf8), crxPath: tmp.path + "/data/ext.crx", chromiumID: crxID,
            version: "1.2.3",
            createdKey: createdKey
                ? PackedExtension.CreatedFile(path: tmp.path + "/data/keys/k.pem", bytes: Array("KEY".utf8)) : nil)
        return options
    }

    @Test func plan_namesTheCRXInEachBrowserThatReadsExternalExtensions_notGoogleChrome() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/data/receipt.json")
        let plan = try installer.plan(options(tmp, ["chromium", "chrome", "brave", "firefox"]))
        let external = plan.filter { if case .externalExtension = $0.kind { true } else { false } }
        #expect(
            external.map(\.path) == [
                tmp.path + "/.config/chromium/External Extensions/\(crxID).json",
                tmp.path + "/.config/BraveSoftware/Brave-Browser/External Extensions/\(crxID).json",
            ])
        let json = try JSONParser.parse(external[0].bytes)
        #expect(json["external_crx"]?.stringValue == tmp.path + "/data/ext.crx")
        #expect(json["external_version"]?.stringValue == "1.2.3")
        #expect(plan.contains { $0.kind == .packedExtension && $0.path == tmp.path + "/data/ext.crx" })
        #expect(plan.first { $0.kind == .signingKey }?.permissions == 0o600)
    }

    @Test func userDataDir_getsTheExternalExtensionsFileInThatProfile() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/data/receipt.json")
        var opts = options(tmp, ["chromium"])
        opts.userDataDirectory = tmp.path + "/profile"
        #expect(
            try installer.plan(opts).contains { $0.path == tmp.path + "/profile/External Extensions/\(crxID).json" })
    }

    @Test func system_isRefused() {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        var opts = options(tmp, ["chromium"])
        opts.system = true
        #expect(throws: InstallError.packedWithSystem) {
            try Installer(home: tmp.path, receiptPath: tmp.path + "/r.json").plan(opts)
        }
    }

    @Test func uninstall_removesWhatInstallWrote_theKeyOnlyWhenInstallMadeIt() throws {
        for made in [true, false] {
            let tmp = TemporaryFolder()
            defer { tmp.remove() }
            let key = tmp.path + "/data/keys/k.pem"
            if !made {
                try FileManager.default.createDirectory(
                    atPath: tmp.path + "/data/keys", withIntermediateDirectories: true)
                try "KEY".write(toFile: key, atomically: true, encoding: .utf8)
            }
            let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/data/receipt.json")
            let plan = try installer.plan(options(tmp, ["chromium"], createdKey: made))
            _ = try installer.apply(plan)
            #expect(try installer.apply(plan).allSatisfy { $0.1 == .unchanged })
            // A second install that found the key does not forget that the first one made it.
            _ = try installer.apply(try installer.plan(options(tmp, ["chromium"], createdKey: false)))
            let external = tmp.path + "/.config/chromium/External Extensions/\(crxID).json"
            #expect(FileManager.default.fileExists(atPath: external))
            if made { #expect(try FileSystem.status(key)?.permissions == 0o600) }
            _ = try installer.uninstall(browsers: nil, folderPrefix: nil)
            #expect(!FileManager.default.fileExists(atPath: external))
            #expect(!FileManager.default.fileExists(atPath: tmp.path + "/data/ext.crx"))
            #expect(FileManager.default.fileExists(atPath: key) == !made, "key made by install: \(made)")
        }
    }

    @Test func uninstallOneProfile_leavesTheOthers() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/data/receipt.json")
        _ = try installer.apply(try installer.plan(options(tmp, ["chromium"])))
        var profile = options(tmp, ["chromium"], createdKey: false)
        profile.userDataDirectory = tmp.path + "/profile"
        _ = try installer.apply(try installer.plan(profile))
        let removed = try installer.uninstall(browsers: nil, folderPrefix: tmp.path + "/profile")
        #expect(removed.map(\.0).allSatisfy { $0.hasPrefix(tmp.path + "/profile/") })
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/profile/External Extensions/\(crxID).json"))
        #expect(
            FileManager.default.fileExists(atPath: tmp.path + "/.config/chromium/External Extensions/\(crxID).json"))
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/data/ext.crx"))
    }

    /// A key that signed a package `pack` wrote may sign a release: after `keepSigningKey`, uninstall
    /// leaves it (the next release would otherwise get another id, and every update break).
    @Test func aKeyThatSignedAPackage_survivesUninstall() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let key = tmp.path + "/data/keys/k.pem"
        let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/data/receipt.json")
        let plan = try installer.plan(options(tmp, ["chromium"]))
        #expect(plan.first?.kind == .signingKey, "the key made is recorded before anything else is written")
        _ = try installer.apply(plan)
        try installer.keepSigningKey(key)
        _ = try installer.apply(try installer.plan(options(tmp, ["chromium"], createdKey: false)))
        let removed = try installer.uninstall(browsers: nil, folderPrefix: nil)
        #expect(!removed.map(\.0).contains(key))
        #expect(FileManager.default.fileExists(atPath: key))
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/data/ext.crx"))
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/data/receipt.json"))
        // The key named through a link on the way is the same key.
        _ = try installer.apply(plan)
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/alias", withDestinationPath: tmp.path + "/data")
        try installer.keepSigningKey(tmp.path + "/alias/keys/k.pem")
        #expect(!installer.loadReceipt().contains { $0.kind == .signingKey })
        _ = try installer.uninstall(browsers: nil, folderPrefix: nil)
        #expect(FileManager.default.fileExists(atPath: key))
        // Without a receipt there is nothing to take a key out of, and nothing is made.
        let fresh = Installer(home: tmp.path, receiptPath: tmp.path + "/none/receipt.json")
        try fresh.keepSigningKey(key)
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/none"))
    }
}
