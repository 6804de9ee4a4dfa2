import BridgeJSON
import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

@Suite struct SHA256Tests {
    @Test func knownVectors() {
        #expect(FileSystem.hex(SHA256.digest([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            FileSystem.hex(SHA256.digest(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(
            FileSystem.hex(SHA256.digest(long)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            FileSystem.hex(SHA256.digest([UInt8](repeating: 0x61, count: 1_000)))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }
}

@Suite struct ExtensionIdentityTests {
    @Test func bundledExtension_idMatchesExtensionIdJSON() throws {
        let identity = try ExtensionIdentity.load(extensionDirectory: repositoryRoot + "/extension")
        let expected = try JSONParser.parse(FileSystem.readFile(repositoryRoot + "/extension/extension-id.json"))
        #expect(identity.chromiumIDs == [expected["chromium"]?.stringValue ?? ""])
        #expect(identity.firefoxIDs == [expected["firefox"]?.stringValue ?? ""])
        #expect(identity.chromiumOrigins == ["chrome-extension://\(identity.chromiumIDs[0])/"])
    }

    @Test func extraIds_goToTheRightFamily() throws {
        var identity = ExtensionIdentity(chromiumIDs: ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"], firefoxIDs: ["a@b"])
        try identity.add(["chrome-extension://bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb/", "c@d", "a@b"])
        #expect(identity.chromiumIDs == ["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"])
        #expect(identity.firefoxIDs == ["a@b", "c@d"])
    }

    /// Issue 28, finding 9: `--extension-id` takes Chromium and Firefox ids only.
    @Test func extraIds_thatAreNeitherId_areRefusedWhole() {
        for bad in ["a@b\nallow = evil@x", "--help", "x y", "nothing", "a@b,c@d", "chrome-extension://short/", "a@"] {
            var identity = ExtensionIdentity(chromiumIDs: [], firefoxIDs: [])
            #expect(throws: InstallError.self, "\(bad)") { try identity.add(["ok@example.com", bad]) }
            #expect(identity.firefoxIDs.isEmpty)
        }
    }

    @Test func missingManifest_saysWhatToPass() {
        #expect {
            try ExtensionIdentity.load(extensionDirectory: "/nonexistent")
        } throws: { error in
            (error as? InstallError)?.description.contains("--extension-dir") == true
        }
    }
}

@Suite struct HostManifestTests {
    @Test(arguments: ["org.extensionbridge.host", "a", "a_b.c9"])
    func validNames(name: String) throws { try HostManifest.validate(name: name) }

    @Test(arguments: ["", ".a", "a.", "a..b", "Org.x", "a-b", "a/b", "a b"])
    func invalidNames(name: String) {
        #expect(throws: InstallError.invalidHostName(name)) { try HostManifest.validate(name: name) }
    }

    @Test(arguments: [BrowserFamily.chromium, .firefox])
    func rendering_matchesTheCommittedTemplate(family: BrowserFamily) throws {
        let template = try String(
            contentsOfFile: repositoryRoot + "/manifests/\(family.rawValue)-host.json.in", encoding: .utf8)
        let rendered =
            template.replacingOccurrences(of: "@HOST_NAME@", with: "org.extensionbridge.host")
            .replacingOccurrences(of: "@HOST_PATH@", with: "/opt/eb/extension-bridge-host")
            .replacingOccurrences(of: "@CHROMIUM_ID@", with: "honlgoealnaplikdeeidpcknncfcnfmo")
            .replacingOccurrences(of: "@FIREFOX_ID@", with: "extension-bridge@extensionbridge.org")
        let allowed =
            family == .chromium
            ? ["chrome-extension://honlgoealnaplikdeeidpcknncfcnfmo/"] : ["extension-bridge@extensionbridge.org"]
        let manifest = HostManifest(
            name: "org.extensionbridge.host", path: "/opt/eb/extension-bridge-host", family: family, allowed: allowed)
        #expect(String(decoding: manifest.bytes, as: UTF8.self) == rendered)
    }
}

@Suite struct CatalogTests {
    @Test func everyBrowserHasLinuxAndMacFolders_andKnownIds() {
        #expect(
            BrowserCatalog.all.map(\.id) == [
                "chrome", "chrome-beta", "chrome-dev", "chromium", "edge", "brave", "vivaldi", "firefox", "librewolf",
            ])
        for browser in BrowserCatalog.all {
            #expect(browser.linuxSystemHosts.hasPrefix("/"))
            #expect(browser.macSystemHosts.hasPrefix("/"))
            #expect(!browser.linuxUserHosts.hasPrefix("/"))
        }
    }

    @Test func locations_includeFlatpakOnLinux() {
        #if os(Linux)
            let chromium = BrowserCatalog.named("chromium")
            let locations = chromium.map { HostLocation.all(for: $0, home: "/h") } ?? []
            #expect(
                locations.map(\.folder) == [
                    "/h/.config/chromium/NativeMessagingHosts", "/etc/chromium/native-messaging-hosts",
                    "/h/.var/app/org.chromium.Chromium/config/chromium/NativeMessagingHosts",
                ])
        #endif
    }
}

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

    /// Issue 28, finding 9: the `.conf` writer refuses a value that would read back as something else.
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

    /// Issue 28, finding 12: a file install only found (already there, the same) is not recorded,
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
}

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

@Suite struct BridgeDescriptionTests {
    @Test func load_refusesWhatItCannotUse_namingTheFile() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = tmp.path + "/bridge.json"
        let good: [String: JSONValue] = [
            "formatVersion": 1, "name": "A", "hostName": "com.example.a", "group": "group.a", "hostProduct": "a-host",
            "version": "1.0",
            "extension": [
                "folder": "extension", "chromiumID": .string(String(repeating: "c", count: 32)),
                "firefoxID": "a@example.com",
            ],
        ]
        try FileSystem.writeAtomically(path, JSONWriter.bytes(.object(good)))
        let loaded = try BridgeDescription.load(path)
        #expect(loaded.extensionFolder == tmp.path + "/extension")
        #expect(loaded.identity.firefoxIDs == ["a@example.com"])
        for (key, value) in [
            ("formatVersion", JSONValue.int(9)), ("hostName", "Bad.Name"), ("hostProduct", "../x"), ("name", .int(1)),
        ] {
            var bad = good
            bad[key] = value
            try FileSystem.writeAtomically(path, JSONWriter.bytes(.object(bad)))
            #expect(throws: InstallError.self) { try BridgeDescription.load(path) }
        }
        try FileSystem.writeAtomically(path, Array("{not json".utf8))
        do {
            _ = try BridgeDescription.load(path)
        } catch {
            #expect(error.description.contains(path))
        }
    }

    func write(
        _ tmp: TemporaryFolder, group: String = "group.a", hostName: String = "com.example.a",
        firefoxID: String = "a@example.com", hostProduct: String = "a-host"
    ) throws -> String {
        let path = tmp.path + "/bridge.json"
        let description: JSONValue = [
            "formatVersion": 1, "name": "A", "hostName": .string(hostName), "group": .string(group),
            "hostProduct": .string(hostProduct), "version": "1.0",
            "extension": [
                "folder": "extension", "chromiumID": .string(String(repeating: "c", count: 32)),
                "firefoxID": .string(firefoxID),
            ],
        ]
        try FileSystem.writeAtomically(path, JSONWriter.bytes(description))
        return path
    }

    /// Issue 28, finding 9: `group` and `firefoxID` went raw into the host's
    /// `.conf`, where a line break added `allow` lines.
    @Test(arguments: [
        ("group.a\nallow = chrome-extension://eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee/", "a@example.com"),
        ("group.a", "a@example.com\nallow = evil@example.com"), ("group.a", "a@example.com\rallow = evil@x"),
        ("group.a", "a@example.com,evil@example.com"), ("group.a", "a@example.com # x"),
        ("group.a", "a@x\u{2028}allow = evil@x"), ("group.a", "a@x\u{0}"), ("group.a", "--help"),
        ("--help", "a@example.com"), ("-x", "a@example.com"), ("group a", "a@example.com"),
        (String(repeating: "g", count: 201), "a@example.com"), ("group.a", String(repeating: "a", count: 260) + "@x.y"),
    ])
    func load_refusesGroupsAndFirefoxIDsTheConfigurationCannotHold(group: String, firefoxID: String) throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try write(tmp, group: group, firefoxID: firefoxID)
        #expect(throws: InstallError.self) { try BridgeDescription.load(path) }
    }

    /// `"features"` (new --features): optional, every feature when missing (a file from before), read in the
    /// canonical order, written back; anything but a list of known names is refused, naming them.
    @Test func load_readsFeatures_defaultAll_andRefusesUnknownOnes() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try write(tmp)
        #expect(try BridgeDescription.load(path).features == ExtensionFeature.all)
        guard case .object(var members) = try JSONParser.parse(FileSystem.readFile(path)) else {
            Issue.record("not an object")
            return
        }
        members["features"] = ["transform", "vocabulary", "transform"]
        try FileSystem.writeAtomically(path, JSONWriter.bytes(.object(members)))
        let loaded = try BridgeDescription.load(path)
        #expect(loaded.features == [.vocabulary, .transform])
        #expect(loaded.json["features"] == ["vocabulary", "transform"])
        for bad: JSONValue in [["Saving"], ["bogus"], [], "vocabulary", [.int(1)], ["vocabulary", .null]] {
            members["features"] = bad
            try FileSystem.writeAtomically(path, JSONWriter.bytes(.object(members)))
            do {
                _ = try BridgeDescription.load(path)
                Issue.record("accepted features \(bad)")
            } catch {
                #expect(error.description.contains("features") && error.description.contains("vocabulary, saving"))
            }
        }
    }

    /// Issue 28, finding 10: a bridge.json naming the built-in host took over the built-in bridge.
    @Test func load_refusesTheBuiltInHostName() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try write(tmp, hostName: "org.extensionbridge.host")
        do {
            _ = try BridgeDescription.load(path)
            Issue.record("accepted the built-in host name")
        } catch {
            #expect(error.description.contains("is the built-in bridge's"))
        }
    }

    @Test(arguments: [".", "..", "-x", ".hidden", "a b", "a\nb"])
    func load_refusesAHostProductThatIsNoPlainName(hostProduct: String) throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try write(tmp, hostProduct: hostProduct)
        #expect(throws: InstallError.self) { try BridgeDescription.load(path) }
    }

    @Test func load_takesFirefoxGUIDsAndEmailIDs() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        for id in ["{ec8030f7-c20a-464f-9b0e-13a3a9e97384}", "@x", "a.b_c-d@e.f"] {
            #expect(try BridgeDescription.load(try write(tmp, firefoxID: id)).firefoxID == id)
        }
    }
}
