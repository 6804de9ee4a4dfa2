import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

/// `SigningKeySource` and `ExtensionPackage.releaseFiles`: which key may sign what, and a refusal
/// that makes no key.
@Suite struct SigningKeySourceTests {
    @Test func builtInIdentity_isTheBundledExtensions() throws {
        #expect(try ExtensionIdentity.load(extensionDirectory: repositoryRoot + "/extension") == .extensionBridge)
        #expect(try ExtensionPackage(extensionDirectory: repositoryRoot + "/extension").isExtensionBridge)
    }

    /// Another extension signed with the machine key would get the id the built-in host trusts
    /// after `install --crx`: refused before the key is made or read; its own key signs it.
    @Test func machineKey_signsExtensionBridgeOnly_andMakesNoKeyForAnother() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try Packing.smallExtension(at: tmp.path + "/other")
        let other = try ExtensionPackage(extensionDirectory: tmp.path + "/other")
        #expect(!other.isExtensionBridge)
        let machine = SigningKeySource.machine(tmp.path + "/data/keys/extension-bridge.pem")
        #expect(throws: PackError.machineKeyForAnotherExtension(path: tmp.path + "/other")) {
            try other.releaseFiles(updateURL: nil, signedBy: machine, searchPath: "/usr/bin:/bin")
        }
        #expect(throws: PackError.machineKeyForAnotherExtension(path: tmp.path + "/other")) {
            try PackedExtension.make(other, signedBy: machine, crxFolder: tmp.path, searchPath: "/usr/bin:/bin")
        }
        #expect(try FileSystem.status(tmp.path + "/data") == nil, "no key, no folder")

        // Copying our manifest's public key without our Firefox id does not make it ours.
        var manifest = try String(contentsOfFile: tmp.path + "/other/manifest.json", encoding: .utf8)
        let ourKey =
            try #require(
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/extension/manifest.json")))
                    as? [String: Any])["key"] as? String
        manifest = manifest.replacingOccurrences(of: "\"AAAA\"", with: "\"\(ourKey ?? "")\"")
        try FileSystem.writeAtomically(tmp.path + "/other/manifest.json", utf8: manifest, permissions: 0o644)
        #expect(try !ExtensionPackage(extensionDirectory: tmp.path + "/other").isExtensionBridge)

        let own = try Packing.key(in: tmp.path, name: "other.pem")
        let signed = try other.releaseFiles(
            updateURL: nil, signedBy: .file(try #require(own.privateKeyPath)), searchPath: "/usr/bin:/bin")
        #expect(signed.key.chromiumID == own.chromiumID && !signed.createdKey)
        #expect(signed.files.map(\.kind) == ["zip", "xpi", "crx"])

        let ours = try ExtensionPackage(extensionDirectory: repositoryRoot + "/extension")
        let made = try ours.releaseFiles(updateURL: nil, signedBy: machine, searchPath: "/usr/bin:/bin")
        #expect(made.createdKey)
        #expect(try FileSystem.status(machine.path)?.permissions == 0o600)
    }

    /// A pack that refuses its input changes nothing: an update URL for a manifest without a
    /// Firefox id is refused before the machine's key is made.
    /// The signing key's own base64 body without its PEM lines (in a JSON string, one line or as
    /// wrapped) escapes `PrivateKeyScan`'s forms, but signing has the key in hand: refused (65) by name,
    /// for `pack` and `install --crx` alike; another key's body is not this one.
    @Test func theSigningKeysBareBase64Body_isRefusedByName() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let key = try Packing.key(in: tmp.path)
        let other = try Packing.key(in: tmp.path, name: "other.pem")
        let source = SigningKeySource.file(try #require(key.privateKeyPath))
        func body(_ key: ExtensionKey, joinedBy separator: String) -> String {
            String(decoding: key.privateKeyPEM, as: UTF8.self).split(separator: "\n")
                .filter { !$0.hasPrefix("-----") }.joined(separator: separator)
        }
        for (name, text) in [
            ("joined", "{\"privateKey\": \"\(body(key, joinedBy: ""))\"}"),
            ("escaped", "{\"privateKey\": \"\(body(key, joinedBy: "\\n"))\"}"),
        ] {
            let root = tmp.path + "/" + name
            try Packing.smallExtension(at: root)
            try Packing.write(["shared/cfg.json": text], under: root)
            let package = try ExtensionPackage(extensionDirectory: root)
            #expect(throws: PackError.privateKey(path: root + "/shared/cfg.json")) {
                try package.releaseFiles(updateURL: nil, signedBy: source, searchPath: "/usr/bin:/bin")
            }
            #expect(throws: PackError.privateKey(path: root + "/shared/cfg.json")) {
                try PackedExtension.make(package, signedBy: source, crxFolder: tmp.path, searchPath: "/usr/bin:/bin")
            }
        }
        let root = tmp.path + "/another"
        try Packing.smallExtension(at: root)
        try Packing.write(["shared/cfg.json": "{\"k\": \"\(body(other, joinedBy: ""))\"}"], under: root)
        let package = try ExtensionPackage(extensionDirectory: root)
        _ = try package.releaseFiles(updateURL: nil, signedBy: source, searchPath: "/usr/bin:/bin")
    }

    @Test func aRefusedPack_makesNoKey() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let key = tmp.path + "/keys/k.pem"
        let url = try UpdateURL("https://example.com/x")
        let noGecko = try ExtensionPackage(
            extensionDirectory: try Self.withoutFirefoxID(repositoryRoot + "/extension", in: tmp.path))
        for source in [SigningKeySource.machine(key), .file(key)] {
            #expect(throws: PackError.noFirefoxID(path: noGecko.extensionDirectory + "/manifest.json")) {
                try noGecko.releaseFiles(updateURL: url, signedBy: source, searchPath: "/usr/bin:/bin")
            }
            #expect(try FileSystem.status(tmp.path + "/keys") == nil, "\(source)")
        }
    }

    /// A key this call made is removed when signing then fails: it signed nothing.
    @Test func aKeyMadeForASigningThatFails_isRemoved() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let package = try ExtensionPackage(extensionDirectory: repositoryRoot + "/extension")
        let machine = SigningKeySource.machine(tmp.path + "/keys/extension-bridge.pem")
        #expect(throws: PackError.toolFailed("signing failed")) {
            try machine.withKey(for: package, searchPath: "/usr/bin:/bin") { (_, created) throws(PackError) in
                #expect(created)
                throw .toolFailed("signing failed")
            }
        }
        #expect(try FileSystem.status(machine.path) == nil)
        // A key that was there before stays, whatever happens.
        _ = try ExtensionKey.loadOrCreate(at: machine.path, searchPath: "/usr/bin:/bin")
        #expect(throws: PackError.self) {
            try machine.withKey(for: package, searchPath: "/usr/bin:/bin") { (_, _) throws(PackError) in
                throw .toolFailed("signing failed")
            }
        }
        #expect(try FileSystem.status(machine.path) != nil)
    }

    /// A copy of the extension at `source` in `folder` whose manifest has no gecko id.
    static func withoutFirefoxID(_ source: String, in folder: String) throws -> String {
        let copy = folder + "/no-gecko"
        try FileManager.default.copyItem(atPath: source, toPath: copy)
        let path = copy + "/manifest.json"
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        json["browser_specific_settings"] = nil
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        return copy
    }
}
