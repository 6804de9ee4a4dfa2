import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

@Suite struct ExtensionKeyTests {
    @Test func loadOrCreate_makesAPrivateFolderAndFile_thenLoadsTheSameKey() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = tmp.path + "/data/keys/k.pem"
        let (made, created) = try ExtensionKey.loadOrCreate(at: path, searchPath: "/usr/bin")
        #expect(created)
        #expect(try FileSystem.status(tmp.path + "/data/keys")?.permissions == 0o700)
        #expect(try FileSystem.status(path)?.permissions == 0o600)
        #expect(try FileSystem.listDirectory(tmp.path + "/data/keys") == ["k.pem"], "no temporary file left")
        let (again, createdAgain) = try ExtensionKey.loadOrCreate(at: path, searchPath: "/usr/bin")
        #expect(!createdAgain)
        #expect(again.publicKeyDER == made.publicKeyDER)
        #expect(again.chromiumID == made.chromiumID)
        #expect(again.privateKeyPath == path)
    }

    @Test func load_symlinkedKey_isRefusedNamingTheFile() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let real = try Packing.key(in: tmp.path)
        let link = tmp.path + "/link.pem"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: try #require(real.privateKeyPath))
        do {
            _ = try ExtensionKey.load(from: link, searchPath: "/usr/bin")
            Issue.record("a linked key was accepted")
        } catch {
            #expect(error.exitStatus == 65)
            #expect(error.description.contains(link) && error.description.contains("symbolic link"))
        }
        #expect(throws: PackError.self) { try ExtensionKey.loadOrCreate(at: link, searchPath: "/usr/bin") }
    }

    @Test func load_keyOthersCanRead_isRefusedWithTheFix() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try #require(try Packing.key(in: tmp.path).privateKeyPath)
        for mode in [0o644, 0o640, 0o604, 0o620] {
            chmod(path, mode_t(mode))
            do {
                _ = try ExtensionKey.load(from: path, searchPath: "/usr/bin")
                Issue.record("mode \(String(mode, radix: 8)) was accepted")
            } catch {
                #expect(error.exitStatus == 65)
                #expect(error.description.contains("chmod 600 '\(path)'"), "\(error)")
            }
        }
        chmod(path, 0o400)
        _ = try ExtensionKey.load(from: path, searchPath: "/usr/bin")
    }

    /// Another user who could swap the key knows the private half of the id the package gets: a key in a
    /// folder others may write (not sticky), or a key file another user owns, is refused (77) as `PathTrust`.
    @Test func load_keyOthersCouldSwap_isRefusedByPathTrust() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try #require(try Packing.key(in: tmp.path).privateKeyPath)
        let folder = tmp.path + "/keys"
        chmod(folder, 0o777)
        do {
            _ = try ExtensionKey.load(from: path, searchPath: "/usr/bin")
            Issue.record("a key in a folder every user can write was accepted")
        } catch {
            #expect(error.exitStatus == 77)
            #expect(error.description.contains(folder) && error.description.contains("mode 777"), "\(error)")
            #expect(error.description.contains("chmod go-w " + folder.shellQuoted), "\(error)")
        }
        chmod(folder, 0o1777)  // sticky, like /tmp: nobody may swap what is not theirs
        _ = try ExtensionKey.load(from: path, searchPath: "/usr/bin")
        chmod(folder, 0o700)
        guard geteuid() == 0 else { return }
        try #require(chown(path, 65534, 65534) == 0)
        #expect(throws: PackError.self) { try ExtensionKey.load(from: path, searchPath: "/usr/bin") }
        do {
            _ = try ExtensionKey.load(from: path, searchPath: "/usr/bin")
        } catch {
            #expect(error.exitStatus == 77 && error.description.contains("belongs to another user"), "\(error)")
        }
    }

    @Test func load_missingOrNotAKey_saysWhat() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        #expect(throws: PackError.keyMissing(path: tmp.path + "/no/k.pem")) {
            try ExtensionKey.load(from: tmp.path + "/no/k.pem", searchPath: "/usr/bin")
        }
        try FileSystem.writeAtomically(tmp.path + "/bad.pem", utf8: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END")
        do {
            _ = try ExtensionKey.load(from: tmp.path + "/bad.pem", searchPath: "/usr/bin")
            Issue.record("not a key, accepted")
        } catch {
            #expect(error.exitStatus == 65)
            guard case .keyInvalid = error else { throw error }
        }
        try FileManager.default.createDirectory(atPath: tmp.path + "/dir.pem", withIntermediateDirectories: false)
        #expect(throws: PackError.self) { try ExtensionKey.load(from: tmp.path + "/dir.pem", searchPath: "/usr/bin") }
    }

    @Test func machineKeyPath_isBesideTheInstallReceipt() {
        let environment = Environment(["XDG_DATA_HOME": "/data"])
        let receipt = Installer.defaultReceiptPath(home: "/home/u", environment: environment)
        let key = ExtensionKey.machineKeyPath(home: "/home/u", environment: environment)
        #expect(FileSystem.parentPath(FileSystem.parentPath(key)) == FileSystem.parentPath(receipt))
        #expect(key.hasSuffix("/keys/extension-bridge.pem"))
        #expect(
            ExtensionKey.machineKeyPath(home: "/home/u", environment: Environment([:]))
                == (Platform.isMacOS
                    ? "/home/u/Library/Application Support/ExtensionBridge/keys/extension-bridge.pem"
                    : "/home/u/.local/share/extension-bridge/keys/extension-bridge.pem"))
    }

    @Test func sign_aKeyWithNoFile_isRefused() throws {
        let key = ExtensionKey(privateKeyPEM: [], publicKeyDER: [1])
        #expect(throws: PackError.keyNotSaved) { try key.sign([1, 2, 3]) }
    }

    /// The real path: openssl makes a 2048-bit RSA key whose DER is what
    /// Chromium hashes; two runs give two ids.
    @Test func generate_makesAFreshRSAKeyAndId() throws {
        let a = try ExtensionKey.generate(searchPath: "/usr/bin:/bin")
        let b = try ExtensionKey.generate(searchPath: "/usr/bin:/bin")
        #expect(a.publicKeyDER.count == 294)
        #expect(ExtensionIdentity.isChromiumID(a.chromiumID))
        #expect(a.chromiumID != b.chromiumID)
        #expect(String(decoding: a.privateKeyPEM, as: UTF8.self).hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test func noOpenssl_isAClearError() {
        do {
            _ = try ExtensionKey.generate(searchPath: "/nonexistent")
            // /usr/bin is always searched last; only fail when it has no openssl either.
        } catch {
            #expect(error.exitStatus == 69)
            #expect(error.description.contains("apt-get install openssl"))
        }
    }
}
