import BridgeJSON
import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

@Suite struct InstallerTests {
    func options(_ tmp: TemporaryFolder, _ browsers: [String]) -> InstallOptions {
        InstallOptions(
            browsers: browsers.compactMap(BrowserCatalog.named), hostPath: tmp.path + "/bin/extension-bridge-host",
            identity: ExtensionIdentity(chromiumIDs: ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"], firefoxIDs: ["x@y"]))
    }

    @Test func install_isIdempotent_andUninstallRemovesExactlyWhatItWrote() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/receipt.json")
        let plan = try installer.plan(options(tmp, ["chromium", "firefox"]))
        #expect(
            plan.map(\.path) == [
                tmp.path + "/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json",
                tmp.path + "/.mozilla/native-messaging-hosts/org.extensionbridge.host.json",
                tmp.path + "/bin/extension-bridge-host.conf",
            ])
        #expect(try installer.apply(plan).map(\.1) == [.written, .written, .written])
        #expect(try installer.apply(plan).map(\.1) == [.unchanged, .unchanged, .unchanged])
        let configuration = try String(contentsOfFile: tmp.path + "/bin/extension-bridge-host.conf", encoding: .utf8)
        #expect(configuration.contains("allow = chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/\nallow = x@y\n"))
        // A file install did not write stays.
        try "mine".write(
            toFile: tmp.path + "/.mozilla/native-messaging-hosts/other.json", atomically: true, encoding: .utf8)
        let firefoxOnly = try installer.uninstall(
            browsers: BrowserCatalog.named("firefox").map { [$0] }, folderPrefix: nil)
        #expect(firefoxOnly.map(\.1) == [.removed])
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/bin/extension-bridge-host.conf"))
        let rest = try installer.uninstall(browsers: nil, folderPrefix: nil)
        #expect(rest.map(\.1) == [.removed, .removed])
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/bin/extension-bridge-host.allowed"))
        #expect(FileManager.default.fileExists(atPath: tmp.path + "/.mozilla/native-messaging-hosts/other.json"))
    }

    @Test func userDataDir_writesIntoTheProfile_andRefusesFirefox() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/receipt.json")
        var opts = options(tmp, ["chromium"])
        opts.userDataDirectory = tmp.path + "/profile"
        #expect(
            try installer.plan(opts).first?.path == tmp.path
                + "/profile/NativeMessagingHosts/org.extensionbridge.host.json")
        opts.browsers = BrowserCatalog.named("firefox").map { [$0] } ?? []
        #expect(throws: InstallError.firefoxWithProfile) { try installer.plan(opts) }
    }

    /// An install that fails half way (`~/.mozilla` a regular file) has recorded every file it
    /// wrote before the failure, so uninstall removes them.
    @Test func aFailedInstall_recordsWhatItWrote_andUninstallRemovesIt() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try "not a folder".write(toFile: tmp.path + "/.mozilla", atomically: true, encoding: .utf8)
        let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/data/receipt.json")
        let chromium = tmp.path + "/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json"
        #expect(throws: InstallError.self) {
            try installer.apply(try installer.plan(options(tmp, ["chromium", "firefox"])))
        }
        #expect(FileManager.default.fileExists(atPath: chromium))
        #expect(installer.loadReceipt().map(\.path) == [chromium], "written, so recorded; the failed one is not")
        #expect(try installer.uninstall(browsers: nil, folderPrefix: nil).map(\.1) == [.removed])
        #expect(!FileManager.default.fileExists(atPath: chromium))
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/data/receipt.json"))
    }

    /// A host name chosen to match another program's (a password manager's) would have install
    /// overwrite its manifest and uninstall remove it: refused before anything is written. A manifest
    /// of ours that no receipt names (a receipt lost) is still replaced.
    @Test func anotherProgramsManifest_isNeverReplaced() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/data/receipt.json")
        var opts = options(tmp, ["chromium", "firefox"])
        opts.hostName = "org.keepassxc.keepassxc_browser"
        let plan = try installer.plan(opts)
        let theirs = Array(
            #"{"name": "org.keepassxc.keepassxc_browser", "description": "KeePassXC integration", "path": "/usr/bin/keepassxc-proxy", "type": "stdio"}"#
                .utf8)
        try FileSystem.makeDirectories(FileSystem.parentPath(plan[0].path), permissions: 0o755)
        try FileSystem.writeAtomically(plan[0].path, theirs, permissions: 0o644)
        #expect(throws: InstallError.otherProgramsManifest(path: plan[0].path, description: "KeePassXC integration")) {
            try installer.apply(plan)
        }
        #expect(try FileSystem.readFile(plan[0].path) == theirs)
        #expect(plan.dropFirst().allSatisfy { !FileManager.default.fileExists(atPath: $0.path) }, "nothing written")
        #expect(!FileManager.default.fileExists(atPath: tmp.path + "/data"), "not even the receipts' folder")
        // Ours, unrecorded: replaced.
        var ours = plan[0]
        ours.bytes = HostManifest(name: opts.hostName, path: "/old/host", family: .chromium, allowed: []).bytes
        try FileSystem.writeAtomically(ours.path, ours.bytes, permissions: 0o644)
        #expect(try installer.apply(plan).map(\.1) == [.written, .written, .written])
    }

    /// Two installs at once must not lose each other's records: install and uninstall read and
    /// write the receipt only while holding the lock on the receipts' folder. Held here, an install
    /// waits for it, writing nothing meanwhile.
    @Test func install_waitsForTheReceiptsLock() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/data/receipts/com.example.a.json")
        #expect(installer.lockFolder == tmp.path + "/data")
        let plan = try installer.plan(options(tmp, ["chromium"]))
        try FileSystem.makeDirectories(tmp.path + "/data", permissions: 0o700)
        let lock = try FileLock.acquire(folder: tmp.path + "/data", timeoutMilliseconds: 0)
        let finished = DispatchGroup()
        finished.enter()
        let (home, receipt) = (installer.home, installer.receiptPath)
        Thread {
            _ = try? Installer(home: home, receiptPath: receipt).apply(plan)
            finished.leave()
        }.start()
        #expect(finished.wait(timeout: .now() + 0.3) == .timedOut, "it did not wait for the lock")
        #expect(!FileManager.default.fileExists(atPath: plan[0].path), "written without the lock")
        lock.release()
        finished.wait()
        #expect(installer.loadReceipt().map(\.path) == plan.map(\.path))
    }

    /// A relative `--user-data-dir` (or any path) is never planned, written or recorded; uninstall
    /// refuses a relative folder too.
    @Test func relativePaths_areRefused() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/receipt.json")
        for profile in ["prof", "./prof", tmp.path + "/a/../prof", ""] {
            var opts = options(tmp, ["chromium"])
            opts.userDataDirectory = profile
            #expect(throws: InstallError.relativePath(profile)) { try installer.plan(opts) }
        }
        var host = options(tmp, ["chromium"])
        host.hostPath = "bin/extension-bridge-host"
        #expect(throws: InstallError.relativePath("bin/extension-bridge-host")) { try installer.plan(host) }
        #expect(throws: InstallError.relativePath(".")) {
            try Installer(home: ".", receiptPath: tmp.path + "/r.json").plan(options(tmp, ["chromium"]))
        }
        #expect(throws: InstallError.relativePath("prof")) {
            try installer.uninstall(browsers: nil, folderPrefix: "prof")
        }
        #expect(FileSystem.absolutePath("prof", from: "/home/u") == "/home/u/prof")
        #expect(FileSystem.absolutePath("./a/../prof/", from: "/home/u") == "/home/u/prof")
        #expect(FileSystem.absolutePath("/x//y/.", from: "/home/u") == "/x/y")
    }

    /// The `.conf` writer refuses a value that would read back as something else.
    @Test func plan_refusesConfigurationValuesThatWouldAddLines() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/receipt.json")
        var withGroup = options(tmp, ["chromium"])
        withGroup.group = "group.a\nallow = evil@example.com"
        #expect(throws: InstallError.self) { try installer.plan(withGroup) }
        for caller in ["x@y\nallow = evil@example.com", "x@y\rallow = e@x", "x@y,evil@x", "x@y#", "x@y\u{85}", ""] {
            var opts = options(tmp, ["firefox"])
            opts.identity.firefoxIDs = [caller]
            #expect(throws: InstallError.self, "\(caller)") { try installer.plan(opts) }
        }
        var log = options(tmp, ["chromium"])
        log.logLevel = "debug\nallow = evil@example.com"
        #expect(throws: InstallError.self) { try installer.plan(log) }
    }

    /// A file install only found (already there, the same) is not recorded,
    /// so uninstall never removes it.
    @Test func aFileAlreadyThere_isFoundNotRecorded_andUninstallLeavesIt() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/receipt.json")
        let plan = try installer.plan(options(tmp, ["chromium"]))
        let conf = try #require(plan.last)
        try FileSystem.makeDirectories(FileSystem.parentPath(conf.path), permissions: 0o755)
        try FileSystem.writeAtomically(conf.path, conf.bytes, permissions: 0o644)
        #expect(try installer.apply(plan).map(\.1) == [.written, .found])
        #expect(try installer.apply(plan).map(\.1) == [.unchanged, .found])
        #expect(installer.loadReceipt().map(\.path) == [plan[0].path])
        _ = try installer.uninstall(browsers: nil, folderPrefix: nil)
        #expect(FileManager.default.fileExists(atPath: conf.path))
    }

    @Test func packagedFiles_areTheDpkgListAndLinksIntoUsrShareExtensionBridge() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let root = tmp.path
        try FileSystem.makeDirectories(root + "/var/lib/dpkg/info", permissions: 0o755)
        try FileSystem.makeDirectories(root + "/etc/x", permissions: 0o755)
        try FileSystem.writeAtomically(
            root + "/var/lib/dpkg/info/extension-bridge.list", utf8: "/usr/lib/extension-bridge/h.conf\n")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/etc/x/a.json", withDestinationPath: "/usr/share/extension-bridge/n/a.json")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/etc/x/b.json", withDestinationPath: "../../usr/share/extension-bridge/n/b.json")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/etc/x/c.json", withDestinationPath: "/usr/share/other/c")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/etc/x/d.json", withDestinationPath: "/usr/share/extension-bridge-evil/d")
        let packaged = PackagedFiles(root: root)
        #expect(packaged.owns(root + "/usr/lib/extension-bridge/h.conf"))
        #expect(packaged.owns(root + "/etc/x/a.json"))
        #expect(packaged.owns(root + "/etc/x/b.json"))
        #expect(!packaged.owns(root + "/etc/x/c.json"))
        #expect(!packaged.owns(root + "/etc/x/d.json"))
        #expect(!packaged.owns("/usr/lib/extension-bridge/h.conf"), "outside the root")
        #expect(!packaged.owns(root + "/usr/lib/extension-bridge/other"))
    }

    @Test func changedFile_isKeptByUninstall() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/receipt.json")
        _ = try installer.apply(try installer.plan(options(tmp, ["chromium"])))
        let manifest = tmp.path + "/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json"
        try "{}".write(toFile: manifest, atomically: true, encoding: .utf8)
        #expect(try installer.uninstall(browsers: nil, folderPrefix: nil).first?.1 == .keptChanged)
        #expect(FileManager.default.fileExists(atPath: manifest))
    }

    /// The receipt's refusal `body` threw, or nil when it threw nothing (or something else).
    func receiptRefusal(_ body: () throws -> Void) -> PathTrust.Refusal? {
        do {
            try body()
        } catch let error as InstallError {
            if case .untrustedReceipt(let refusal) = error { return refusal }
        } catch {}
        return nil
    }

    @Test func aReceiptOrItsFolder_othersCouldWrite_isRefused_byInstallAndUninstall() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = tmp.path + "/data"
        let receipt = folder + "/receipt.json"
        let installer = Installer(home: tmp.path, receiptPath: receipt, userID: 0)
        let plan = try installer.plan(options(tmp, ["chromium"]))
        let manifest = plan[0].path
        try FileSystem.makeDirectory(folder, permissions: 0o700)
        #expect(chmod(folder, 0o777) == 0)
        #expect(receiptRefusal { _ = try installer.apply(plan) }?.path == folder)
        #expect(try FileSystem.status(receipt) == nil)
        #expect(try FileSystem.status(manifest) == nil)
        #expect(chmod(folder, 0o700) == 0)
        _ = try installer.apply(plan)

        // Another user's receipt, or one others may write, could name any file: nothing is removed.
        #expect(chown(receipt, 65534, 65534) == 0)
        #expect(receiptRefusal { _ = try installer.uninstall(browsers: nil, folderPrefix: nil) }?.path == receipt)
        #expect(receiptRefusal { _ = try installer.uninstallPreview(browsers: nil, folderPrefix: nil) } != nil)
        #expect(chown(receipt, 0, 0) == 0)
        #expect(chmod(receipt, 0o666) == 0)
        let refusal = receiptRefusal { _ = try installer.uninstall(browsers: nil, folderPrefix: nil) }
        #expect(refusal?.fix == "chmod go-w " + receipt.shellQuoted)
        #expect(InstallError.untrustedReceipt(try #require(refusal)).description.contains(receipt))
        #expect(chmod(folder, 0o777) == 0)
        #expect(chmod(receipt, 0o600) == 0)
        #expect(receiptRefusal { _ = try installer.uninstall(browsers: nil, folderPrefix: nil) }?.path == folder)
        #expect(try FileSystem.status(manifest) != nil)

        #expect(chmod(folder, 0o700) == 0)
        #expect(try installer.uninstall(browsers: nil, folderPrefix: nil).map(\.1) == [.removed, .removed])
        #expect(try FileSystem.status(manifest) == nil)
    }

    /// A `--user-data-dir` another user owns, with their link inside it to a folder of their choosing:
    /// install (root's, under sudo) would create our manifest wherever the link points. The folder a
    /// file goes into, and every one on its way, is held to PathTrust: refused, nothing written.
    @Test func aDestinationFolderAnotherUserControls_isRefused_andNothingIsWritten() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let profile = tmp.path + "/profile"
        let chosen = tmp.path + "/chosen"
        try FileSystem.makeDirectory(profile, permissions: 0o755)
        try FileSystem.makeDirectory(chosen, permissions: 0o700)
        #expect(symlink(chosen, profile + "/NativeMessagingHosts") == 0)
        #expect(lchown(profile + "/NativeMessagingHosts", 65534, 65534) == 0)
        #expect(chown(profile, 65534, 65534) == 0)
        let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/data/receipt.json", userID: 0)
        var options = options(tmp, ["chromium"])
        options.userDataDirectory = profile
        let plan = try installer.plan(options)
        var refused: PathTrust.Refusal?
        do {
            _ = try installer.apply(plan)
        } catch {
            if case .untrustedDestination(let refusal) = error { refused = refusal }
        }
        #expect(refused?.path == profile, "\(String(describing: refused))")
        #expect(try FileSystem.listDirectory(chosen).isEmpty)
        #expect(try FileSystem.status(tmp.path + "/data/receipt.json") == nil)
        #expect(chown(profile, 0, 0) == 0)
        #expect(lchown(profile + "/NativeMessagingHosts", 0, 0) == 0)
        #expect(try installer.apply(plan).map(\.1).contains(.written))
    }

    @Test func aManifestEntryOutsideTheHostsFolders_isKeptByUninstall() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let installer = Installer(home: tmp.path, receiptPath: tmp.path + "/receipt.json")
        _ = try installer.apply(try installer.plan(options(tmp, ["chromium"])))
        let victim = tmp.path + "/victim.txt"
        let other = tmp.path + "/x/NativeMessagingHosts/../../victim.txt"
        try FileSystem.writeAtomically(victim, Array("secret".utf8), permissions: 0o600)
        let sha = FileSystem.hex(SHA256.digest(Array("secret".utf8)))
        try installer.saveReceipt(
            installer.loadReceipt() + [
                .init(path: victim, sha256: sha, kind: .manifest(browser: "chromium")),
                .init(path: other, sha256: sha, kind: .externalExtension(browser: "chromium")),
            ], bridge: nil)
        let preview = try installer.uninstallPreview(browsers: nil, folderPrefix: nil)
        #expect(preview.filter { $0.1 == .notInItsFolder }.map(\.0) == [victim, other])
        let results = try installer.uninstall(browsers: nil, folderPrefix: nil)
        #expect(results.filter { $0.1 == .notInItsFolder }.map(\.0) == [victim, other])
        #expect(results.filter { $0.1 == .removed }.count == 2)
        #expect(try FileSystem.readFile(victim) == Array("secret".utf8))
    }
}
