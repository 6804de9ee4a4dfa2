import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

/// The Debian layout is what every bridge's package installs: these check where each file goes
/// and what the files the browsers read say, without building the package (deb-test builds and
/// installs one for real).
@Suite struct DebianLayoutTests {
    /// The smallest ELF64 header with no program header: static, as the layout requires.
    static let staticHost: [UInt8] = {
        var bytes = [UInt8](repeating: 0, count: 64)
        bytes[0...5] = [0x7F, 0x45, 0x4C, 0x46, 2, 1]
        bytes[0x20] = 64
        bytes[0x36] = 56
        return bytes
    }()

    static let chromiumID = String(repeating: "c", count: 32)

    func bridge() -> BridgeDescription {
        var bridge = BridgeDescription(
            name: "ReadLater", hostName: "com.example.readlater", group: "group.com.example.readlater",
            hostProduct: "readlater-host", version: "1.2.3", extensionFolder: "/nowhere",
            chromiumID: Self.chromiumID, firefoxID: "readlater@example.com")
        bridge.maintainer = "Ann <ann@example.com>"
        return bridge
    }

    func layout(_ subject: DebianLayout.Subject, in folder: String, host: [UInt8] = staticHost) throws -> DebianLayout {
        try Packing.smallExtension(at: folder + "/extension")
        let package = try ExtensionPackage(extensionDirectory: folder + "/extension")
        return DebianLayout(
            subject: subject, maintainer: "Ann <ann@example.com>", host: host, hostSource: "/build/readlater-host",
            extensionPackage: package,
            identity: ExtensionIdentity(chromiumIDs: [Self.chromiumID], firefoxIDs: ["readlater@example.com"]),
            group: nil, architecture: "amd64", timestamp: 1_700_000_000)
    }

    func text(_ item: DebianPackage.Item?) -> String? {
        switch item {
        case .file(let bytes, _, _), .conffile(let bytes): String(decoding: bytes, as: UTF8.self)
        default: nil
        }
    }

    @Test func aBridgesPackage_putsTheHostUnderItsName_andLinksEveryEtcManifestToOneCopy() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let deb = try layout(.bridge(bridge()), in: tmp.path).package()
        #expect(deb.control.name == "readlater")
        #expect(deb.control.version == "1.2.3")
        #expect(deb.control.maintainer == "Ann <ann@example.com>")
        #expect(
            deb.items["/usr/lib/com.example.readlater/readlater-host"]
                == .file(Self.staticHost, mode: 0o755, strip: true))
        // The configuration is the package's: its first line says an upgrade replaces it.
        let conf = try #require(text(deb.items["/usr/lib/com.example.readlater/readlater-host.conf"]))
        #expect(conf.hasPrefix("# extension-bridge-host configuration: part of the readlater package"))
        #expect(conf.contains("group = group.com.example.readlater\n"))
        #expect(conf.contains("allow = chrome-extension://\(Self.chromiumID)/\n"))
        #expect(conf.contains("allow = readlater@example.com\n"))
        // Chromium reads /etc/chromium: a link to the one shared copy, which dpkg -r removes.
        let shared = "/usr/share/readlater/native-messaging-hosts/com.example.readlater.json"
        #expect(
            deb.items["/etc/chromium/native-messaging-hosts/com.example.readlater.json"]
                == .link(target: shared))
        let manifest = try #require(text(deb.items[shared]))
        #expect(manifest.contains("/usr/lib/com.example.readlater/readlater-host"))
        #expect(manifest.contains("chrome-extension://\(Self.chromiumID)/"))
        // Firefox's system folder is under /usr: a file, allowing the add-on id.
        let firefox = try #require(
            text(deb.items["/usr/lib/mozilla/native-messaging-hosts/com.example.readlater.json"]))
        #expect(firefox.contains("readlater@example.com"))
        #expect(deb.items["/usr/share/chromium/extensions/readlater"] == .link(target: "../../readlater/extension"))
        #expect(text(deb.items["/usr/share/readlater/extension/bg.js"]) == "console.log('bg');\n")
        #expect(text(deb.items["/etc/firefox-esr/readlater.js"])?.contains("extensions.startupScanScopes") == true)
        // Only ExtensionBridge's own package carries the settings program.
        #expect(deb.items["/usr/bin/extension-bridge"] == nil)
        #expect(text(deb.items["/usr/share/lintian/overrides/readlater"])?.contains("uses-dpkg-database") == false)
        #expect(deb.items["/usr/share/doc/readlater/changelog.gz"] != nil)
    }

    @Test func theBuiltInPackage_carriesTheProgram_itsManPage_andCompletions() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let files = DebianLayout.BuiltInFiles(
            program: [1, 2, 3], manPage: Array(".TH EXTENSION-BRIDGE 1\n".utf8), bashCompletion: Array("b".utf8),
            zshCompletion: Array("z".utf8), fishCompletion: Array("f".utf8))
        let deb = try layout(.builtIn(files), in: tmp.path).package()
        #expect(deb.control.name == "extension-bridge")
        #expect(deb.control.suggests == ["openssl", "libsecret-tools"])
        #expect(deb.items["/usr/lib/extension-bridge/extension-bridge-host"] != nil)
        #expect(deb.items["/usr/bin/extension-bridge"] == .file([1, 2, 3], mode: 0o755, strip: true))
        guard case .file(let manPage, _, _) = deb.items["/usr/share/man/man1/extension-bridge.1.gz"] else {
            Issue.record("no man page")
            return
        }
        #expect(Array(manPage.prefix(2)) == [0x1F, 0x8B])  // gzip
        #expect(text(deb.items["/usr/share/fish/vendor_completions.d/extension-bridge.fish"]) == "f")
        #expect(
            text(deb.items["/etc/chromium/native-messaging-hosts/org.extensionbridge.host.json"]) == nil
                && deb.items["/etc/chromium/native-messaging-hosts/\(HostManifest.defaultName).json"] != nil)
    }

    @Test func refusals_nameWhatIsWrong() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        #expect(throws: PackError.dynamicHost(path: "/build/readlater-host")) {
            try layout(.bridge(bridge()), in: tmp.path, host: Array("#!/bin/sh\n".utf8)).package()
        }
        var noFirefox = try layout(.bridge(bridge()), in: tmp.path)
        noFirefox.identity = ExtensionIdentity(chromiumIDs: [Self.chromiumID], firefoxIDs: [])
        #expect(throws: PackError.noFirefoxID(path: tmp.path + "/extension/manifest.json")) {
            try noFirefox.package()
        }
        var badGroup = try layout(.bridge(bridge()), in: tmp.path)
        badGroup.group = "-bad"
        #expect(throws: PackError.registration(.invalidGroupID("-bad"))) { try badGroup.package() }
    }

    @Test func hostPaths_builtInAndABridges() {
        #expect(DebianLayout.hostPath(of: nil) == "/usr/lib/extension-bridge/extension-bridge-host")
        #expect(DebianLayout.hostPath(of: bridge()) == "/usr/lib/com.example.readlater/readlater-host")
    }
}
