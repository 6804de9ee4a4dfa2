import BridgeJSON
import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

@Suite struct ExtensionPackageTests {
    func manifest(in zip: [UInt8]) throws -> JSONValue {
        let entry = try #require(try ZipArchive.entries(in: zip).first { $0.path == "manifest.json" })
        return try JSONParser.parse(entry.bytes)
    }

    @Test func bundledExtension_webStoreZip_hasNoKeyNoTestsNoFirefoxSettings() throws {
        let package = try ExtensionPackage(extensionDirectory: repositoryRoot + "/extension")
        let zip = try package.chromeZip()
        let paths = try ZipArchive.entries(in: zip).map(\.path)
        #expect(paths.contains("manifest.json") && paths.contains("background/background.js"))
        #expect(paths.contains("_locales/en/messages.json") && paths.contains("icons/icon-128.png"))
        for path in paths {
            #expect(!path.hasPrefix("test/") && !path.hasPrefix("tools/") && !path.hasPrefix("bench/"), "\(path)")
            #expect(!["package.json", "README.md", "extension-id.json"].contains(path), "\(path)")
        }
        let manifest = try manifest(in: zip)
        #expect(manifest["key"] == nil)
        #expect(manifest["browser_specific_settings"] == nil)
        #expect(manifest["background"] == ["service_worker": "background/background.js", "type": "module"])
        #expect(manifest["update_url"] == nil)
        #expect(manifest["version"]?.stringValue == package.version)
        #expect(package.fileName(.chromeZip) == "extension-bridge-\(package.version).zip")
    }

    @Test func bundledExtension_xpi_keepsGeckoIDAndDataCollection_withoutKey() throws {
        let package = try ExtensionPackage(extensionDirectory: repositoryRoot + "/extension")
        let manifest = try manifest(in: try package.firefoxXPI(updateURL: nil))
        #expect(manifest["key"] == nil)
        let gecko = manifest["browser_specific_settings"]?["gecko"]
        #expect(gecko?["id"] == "extension-bridge@extensionbridge.org")
        #expect(gecko?["data_collection_permissions"] == ["required": ["none"]])
        #expect(gecko?["update_url"] == nil)
        #expect(manifest["background"]?["scripts"] == ["background/background.js"], "Firefox runs scripts")
        #expect(package.firefoxID == "extension-bridge@extensionbridge.org")
    }

    @Test func smallFolder_skipsTestsToolsAndDotfiles_addsDataCollection() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try Packing.smallExtension(at: tmp.path)
        let package = try ExtensionPackage(extensionDirectory: tmp.path)
        #expect(
            try ZipArchive.entries(in: package.chromeZip()).map(\.path) == [
                "bg.js", "content/test/kept.js", "manifest.json",
            ])
        #expect(package.slug == "read-later")
        #expect(package.fileName(.crx) == "read-later-1.2.3.crx")
        // Named, so an author whose extension loads one of them sees it (dotfiles are not listed).
        #expect(package.leftOut == ["README.md", "bench/", "extension-id.json", "package.json", "test/", "tools/"])
        let gecko = try manifest(in: package.firefoxXPI(updateURL: nil))["browser_specific_settings"]?["gecko"]
        #expect(gecko == ["id": "readlater@example.com", "data_collection_permissions": ["required": ["none"]]])
    }

    /// A manifest naming a file the package would not hold (missing, left out, or outside the folder)
    /// made packages the browsers refuse to load: refused (65), naming where the manifest names it.
    @Test(arguments: [
        (
            #""content_scripts": [{"matches": ["<all_urls>"], "js": ["c.js", "missing.js"]}]"#,
            "content_scripts[0].js[1] names 'missing.js', which is not in the extension folder"
        ),
        (
            #""content_scripts": [{"matches": ["<all_urls>"], "js": ["../../../../etc/passwd"]}]"#,
            "content_scripts[0].js[0] names '../../../../etc/passwd', outside the extension folder"
        ),
        (
            #""icons": {"48": "/icons/i.png", "128": "icons/gone.png"}"#,
            "icons.128 names 'icons/gone.png', which is not in the extension folder"
        ),
        (#""action": {"default_popup": "test/popup.html"}"#, "names 'test/popup.html', which pack leaves out"),
        (#""default_locale": "fr""#, "default_locale names '_locales/fr/messages.json'"),
    ])
    func aManifestNamingAFileThePackageWouldNotHold_isRefused(member: String, expected: String) throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = tmp.path + "/extension"
        try FileSystem.makeDirectories(folder + "/icons", permissions: 0o755)
        try FileSystem.makeDirectories(folder + "/test", permissions: 0o755)
        for file in ["c.js", "icons/i.png", "test/popup.html", "sw.js"] {
            try FileSystem.writeAtomically(folder + "/" + file, Array("x".utf8))
        }
        let text =
            #"{"manifest_version": 3, "name": "M", "version": "1.0", "background": {"service_worker": "./sw.js"}, "#
        try FileSystem.writeAtomically(folder + "/manifest.json", Array((text + member + "}").utf8))
        do {
            _ = try ExtensionPackage(extensionDirectory: folder)
            Issue.record("packed")
        } catch {
            if case .manifest(_, let reason) = error {
                #expect(reason.contains(expected), "\(reason)")
            } else {
                Issue.record("\(error)")
            }
        }
        // Named files that are all there pack (a leading "/" or "./" is the folder's top).
        try FileSystem.writeAtomically(
            folder + "/manifest.json", Array((text + #""icons": {"48": "/icons/i.png"}}"#).utf8))
        #expect(try ExtensionPackage(extensionDirectory: folder).files.map(\.path).contains("icons/i.png"))
    }

    /// A Manifest V2 extension imported from Safari: Firefox's manifest in the folder, Chromium's beside it.
    @Test func aChromiumManifestOfItsOwn_makesTheZipAndCRX_theXPIKeepsTheFolders() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let folder = tmp.path + "/extension"
        try FileSystem.makeDirectories(folder, permissions: 0o755)
        let firefox =
            #"{"manifest_version": 2, "name": "M", "version": "1.2", "key": "K", "background": {"scripts": ["bg.js"]}, "browser_specific_settings": {"gecko": {"id": "m@example.com"}}}"#
        try FileSystem.writeAtomically(folder + "/manifest.json", Array(firefox.utf8))
        try FileSystem.writeAtomically(folder + "/bg.js", Array("//".utf8))
        try FileSystem.writeAtomically(folder + "/sw.js", Array("//".utf8))
        let chromium = tmp.path + "/chromium.json"
        try FileSystem.writeAtomically(
            chromium,
            Array(
                #"{"manifest_version": 3, "name": "M", "version": "1.2", "key": "K", "background": {"service_worker": "sw.js"}}"#
                    .utf8))
        // Without it the folder's Manifest V2 cannot make Chromium's packages, and says why.
        #expect(throws: PackError.self) { try ExtensionPackage(extensionDirectory: folder) }
        let package = try ExtensionPackage(extensionDirectory: folder, chromiumManifest: chromium)
        let zip = try manifest(in: package.chromeZip())
        #expect(zip["manifest_version"] == 3 && zip["background"] == ["service_worker": "sw.js"] && zip["key"] == nil)
        let xpi = try manifest(in: package.firefoxXPI(updateURL: nil))
        #expect(xpi["manifest_version"] == 2 && xpi["background"] == ["scripts": ["bg.js"]])
        let unpacked = try JSONParser.parse(try #require(package.chromiumManifestBytes))
        #expect(unpacked["key"] == "K", "an unpacked install keeps the id")
        // Another version in one of the two is refused: both would ship.
        try FileSystem.writeAtomically(chromium, Array(#"{"manifest_version": 3, "version": "1.3"}"#.utf8))
        do {
            _ = try ExtensionPackage(extensionDirectory: folder, chromiumManifest: chromium)
            Issue.record("two versions were packed")
        } catch {
            #expect(error.description.contains("\"1.3\", not the folder manifest's 1.2"), "\(error)")
        }
    }

    /// Chromium's manifest goes into the zip and the CRX like the folder's files: a private key pasted
    /// into it is refused by name as one in the folder is.
    @Test func aPrivateKeyInChromiumsManifest_isRefusedByName() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try Packing.smallExtension(at: tmp.path + "/ext")
        let pem = String(decoding: try Packing.key(in: tmp.path).privateKeyPEM, as: UTF8.self)
        let escaped = pem.replacingOccurrences(of: "\n", with: "\\n")
        let chromium = tmp.path + "/chromium.json"
        let version = try ExtensionPackage(extensionDirectory: tmp.path + "/ext").version
        try FileSystem.writeAtomically(
            chromium, Array(#"{"manifest_version": 3, "version": "\#(version)", "note": "\#(escaped)"}"#.utf8))
        #expect(throws: PackError.privateKey(path: chromium)) {
            try ExtensionPackage(extensionDirectory: tmp.path + "/ext", chromiumManifest: chromium)
        }
    }

    @Test func updateURLs_onlyWithAnUpdateURL_andNeverInTheWebStoreZip() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try Packing.smallExtension(at: tmp.path + "/ext")
        let key = try Packing.key(in: tmp.path)
        let package = try ExtensionPackage(extensionDirectory: tmp.path + "/ext")
        let base = try UpdateURL("https://example.com/dl/")
        #expect(base.base == "https://example.com/dl")

        let crx = try CRX3.parse(try package.crx(key: key, updateURL: base))
        #expect(try manifest(in: crx.zip)["update_url"] == "https://example.com/dl/updates.xml")
        #expect(try manifest(in: CRX3.parse(package.crx(key: key, updateURL: nil)).zip)["update_url"] == nil)
        let xpi = try manifest(in: package.firefoxXPI(updateURL: base))
        #expect(xpi["browser_specific_settings"]?["gecko"]?["update_url"] == "https://example.com/dl/updates.json")
        #expect(xpi["update_url"] == nil)
        #expect(try manifest(in: package.chromeZip())["update_url"] == nil)

        let xml = String(decoding: package.chromiumUpdateManifest(key: key, updateURL: base), as: UTF8.self)
        #expect(xml.contains("<gupdate xmlns='http://www.google.com/update2/response' protocol='2.0'>"))
        #expect(xml.contains("<app appid='\(key.chromiumID)'>"))
        #expect(xml.contains("<updatecheck codebase='https://example.com/dl/read-later-1.2.3.crx' version='1.2.3'/>"))
        let json = try JSONParser.parse(package.firefoxUpdateManifest(updateURL: base))
        #expect(
            json == [
                "addons": [
                    "readlater@example.com": [
                        "updates": [
                            ["version": "1.2.3", "update_link": "https://example.com/dl/read-later-1.2.3.xpi"]
                        ]
                    ]
                ]
            ])
    }

    @Test func twoRuns_identicalBytes() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let key = try Packing.key(in: tmp.path)
        let url = try UpdateURL("https://example.com/x")
        let a = try ExtensionPackage(extensionDirectory: repositoryRoot + "/extension")
        let b = try ExtensionPackage(extensionDirectory: repositoryRoot + "/extension")
        #expect(try a.chromeZip() == b.chromeZip())
        #expect(try a.firefoxXPI(updateURL: url) == b.firefoxXPI(updateURL: url))
        #expect(try a.crx(key: key, updateURL: url) == b.crx(key: key, updateURL: url))
    }

    @Test func symlinkInTheFolder_isRefused() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let fm = FileManager.default
        for (name, target) in [("secret.js", "/etc/passwd"), ("icons", "/usr/share"), ("manifest.json", "real.json")] {
            let root = tmp.path + "/" + name.replacingOccurrences(of: ".", with: "_")
            try Packing.smallExtension(at: root)
            if name == "manifest.json" { try fm.moveItem(atPath: root + "/manifest.json", toPath: root + "/real.json") }
            try fm.createSymbolicLink(atPath: root + "/" + name, withDestinationPath: target)
            #expect(throws: PackError.symbolicLink(path: root + "/" + name)) {
                try ExtensionPackage(extensionDirectory: root)
            }
        }
    }

    /// The signing key kept with the extension it signs (`pack --key ext/key.pem`), or any private key
    /// anywhere in the folder: refused by name before anything is packed, whatever the file is called.
    @Test func aPrivateKeyInTheFolder_isRefusedByName() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let key = try Packing.key(in: tmp.path)
        for name in ["key.pem", "icons/logo.png", "lib/config.js"] {
            let root = tmp.path + "/" + name.replacingOccurrences(of: "/", with: "_")
            try Packing.smallExtension(at: root)
            try FileManager.default.createDirectory(
                atPath: (root + "/" + name as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileSystem.writeAtomically(root + "/" + name, key.privateKeyPEM, permissions: 0o600)
            #expect(throws: PackError.privateKey(path: root + "/" + name)) {
                try ExtensionPackage(extensionDirectory: root)
            }
        }
    }

    /// What is signed and packed runs in the user's browser: a file or sub-folder inside the extension
    /// that others may write is refused (77) by `PathTrust`'s rule, naming the path, its mode and the fix.
    @Test func aFileOrFolderOthersCanWrite_isRefused() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        for (name, mode) in [("content/content.js", 0o666), ("content", 0o777), ("manifest.json", 0o646)] {
            let root = tmp.path + "/" + name.replacingOccurrences(of: "/", with: "_")
            try Packing.smallExtension(at: root)
            try Packing.write(["content/content.js": "x"], under: root)
            chmod(root + "/" + name, mode_t(mode))
            do {
                _ = try ExtensionPackage(extensionDirectory: root)
                Issue.record("\(name) mode \(String(mode, radix: 8)) was accepted")
            } catch {
                #expect(error.exitStatus == 77)
                #expect(error == .untrustedInput(try #require(PathTrust.refusal(root + "/" + name))))
                #expect(error.description.contains("mode \(String(mode, radix: 8))"), "\(error)")
                #expect(error.description.contains("chmod go-w " + (root + "/" + name).shellQuoted), "\(error)")
            }
            chmod(root + "/" + name, mode_t(mode & 0o755))
            _ = try ExtensionPackage(extensionDirectory: root)
        }
    }

    @Test func fifoInTheFolder_isRefusedWithoutHanging() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try Packing.smallExtension(at: tmp.path)
        try #require(mkfifo(tmp.path + "/pipe.js", 0o644) == 0)
        #expect(throws: PackError.notRegularFile(path: tmp.path + "/pipe.js")) {
            try ExtensionPackage(extensionDirectory: tmp.path)
        }
    }

    @Test func unsafeFileName_isRefused() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try Packing.smallExtension(at: tmp.path)
        try Packing.write(["content/a\\b.js": "x"], under: tmp.path)
        #expect(throws: PackError.self) { try ExtensionPackage(extensionDirectory: tmp.path) }
    }

    @Test func emptyOrMissingFolder_isMissingExtension() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        #expect(throws: PackError.missingExtension(path: tmp.path)) {
            try ExtensionPackage(extensionDirectory: tmp.path)
        }
        #expect(throws: PackError.missingExtension(path: tmp.path + "/none")) {
            try ExtensionPackage(extensionDirectory: tmp.path + "/none")
        }
        #expect(PackError.missingExtension(path: "x").exitStatus == 66)
    }

    @Test func moreThanTheLimit_isRefused() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try Packing.smallExtension(at: tmp.path)
        try Packing.write(["big.bin": String(repeating: "x", count: 4_000)], under: tmp.path)
        #expect(throws: PackError.tooLarge(path: tmp.path + "/big.bin", limit: 2_000)) {
            try ExtensionPackage(extensionDirectory: tmp.path, limit: 2_000)
        }
        _ = try ExtensionPackage(extensionDirectory: tmp.path, limit: 8_000)
    }

    @Test func badManifests_sayWhat() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        for (text, fragment) in [
            ("not json", "not JSON"), ("[]", "not a JSON object"), ("{\"version\": \"1.02\"}", "\"version\""),
            ("{\"version\": \"1.2.3.4.5\"}", "\"version\""), ("{\"version\": \"1.0\\n\"}", "\"version\""),
            ("{\"version\": \"1\", \"background\": {\"scripts\": [\"a.js\"]}}", "service_worker"),
        ] {
            try FileSystem.writeAtomically(tmp.path + "/manifest.json", utf8: text)
            do {
                _ = try ExtensionPackage(extensionDirectory: tmp.path)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.exitStatus == 65)
                #expect(error.description.contains(fragment), "\(error)")
            }
        }
    }

    @Test func updateURL_needsAFirefoxID() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/manifest.json", utf8: "{\"name\": \"X\", \"version\": \"1\"}")
        let package = try ExtensionPackage(extensionDirectory: tmp.path)
        _ = try package.firefoxXPI(updateURL: nil)
        #expect(throws: PackError.noFirefoxID(path: tmp.path + "/manifest.json")) {
            try package.firefoxXPI(updateURL: UpdateURL("https://example.com"))
        }
    }

    @Test func versionsAndSlugs() {
        for good in ["0", "1.2", "1.2.3.4", "65535.0"] { #expect(ExtensionPackage.isVersion(good), "\(good)") }
        for bad in ["", "1.", ".1", "01", "1.2.3.4.5", "65536", "1a", "1 .2", "-1"] {
            #expect(!ExtensionPackage.isVersion(bad), "\(bad)")
        }
        #expect(ExtensionPackage.slug("ExtensionBridge") == "extension-bridge")
        #expect(ExtensionPackage.slug("Read Later!") == "read-later")
        #expect(ExtensionPackage.slug("../../etc") == "etc")
        #expect(ExtensionPackage.slug("日本") == "extension")
    }

    /// An output folder inside the extension would have the next pack pack the packages.
    @Test func isInside_comparesAbsolutePathsByComponent() {
        #expect(ExtensionPackage.isInside("extension/dist", "extension", from: "/p"))
        #expect(ExtensionPackage.isInside("/p/extension", "./extension/", from: "/p"))
        #expect(ExtensionPackage.isInside("dist/../extension/x", "/p/extension", from: "/p"))
        #expect(!ExtensionPackage.isInside("dist", "extension", from: "/p"))
        #expect(!ExtensionPackage.isInside("extension-dist", "extension", from: "/p"))
        #expect(!ExtensionPackage.isInside("/p", "/p/extension", from: "/"))
    }
}
