import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

@Suite struct CRX3Tests {
    let zip: [UInt8]

    init() throws {
        zip = try ZipArchive.make([
            ZipArchive.Entry(path: "manifest.json", bytes: Array("{\"manifest_version\":3}\n".utf8)),
            ZipArchive.Entry(path: "bg.js", bytes: Array("1\n".utf8)),
        ])
    }

    @Test func header_layoutParsesBack_crxIDIsTheKeys() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let key = try Packing.key(in: tmp.path)
        let crx = try CRX3.make(zip: zip, key: key)
        #expect(Array(crx[0..<8]) == Array("Cr24".utf8) + [3, 0, 0, 0])
        let headerLength = Int(crx[8]) | Int(crx[9]) << 8 | Int(crx[10]) << 16 | Int(crx[11]) << 24
        #expect(Array(crx[(12 + headerLength)...]) == zip, "the zip follows the header unchanged")
        let parsed = try CRX3.parse(crx)
        #expect(parsed.proofs.count == 1)
        #expect(parsed.proofs.first?.publicKey == key.publicKeyDER)
        #expect(parsed.proofs.first?.signature.count == 256, "2048-bit RSA")
        #expect(parsed.zip == zip)
        #expect(parsed.crxID == Array(SHA256.digest(key.publicKeyDER).prefix(16)))
        #expect(parsed.signedHeaderData == [0x0A, 16] + parsed.crxID, "SignedData { crx_id = 1 }")
        let letters = parsed.crxID.flatMap { [$0 >> 4, $0 & 0xF] }.map { Character(Unicode.Scalar(0x61 + $0)) }
        #expect(String(letters) == key.chromiumID)
        // signed_header_data is field 10000, wire type 2: the varint 80002 is 0x82 0xF1 0x04.
        let header = Array(crx[12..<(12 + headerLength)])
        #expect(header.first == 0x12, "sha256_with_rsa = 2 comes first")
        #expect(Array(header.suffix(22)) == [0x82, 0xF1, 0x04, 18, 0x0A, 16] + parsed.crxID)
    }

    @Test func signature_verifiesWithOpenSSL_overTheDocumentedData() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let key = try Packing.key(in: tmp.path)
        let parsed = try CRX3.parse(try CRX3.make(zip: zip, key: key))
        let proof = try #require(parsed.proofs.first)
        try FileSystem.writeAtomically(tmp.path + "/pub.der", proof.publicKey)
        try FileSystem.writeAtomically(tmp.path + "/sig", proof.signature)
        func verify(_ zip: [UInt8]) throws -> Int32 {
            // Rebuilt by hand, not with CRX3.signedPayload: "CRX3 SignedData\0", LE32 length, SignedData, zip.
            var data = Array("CRX3 SignedData".utf8) + [0]
            data += [UInt8(parsed.signedHeaderData.count), 0, 0, 0] + parsed.signedHeaderData + zip
            let result = try #require(
                try Packing.run(
                    "/usr/bin/openssl",
                    [
                        "dgst", "-sha256", "-verify", tmp.path + "/pub.der", "-keyform", "DER", "-signature",
                        tmp.path + "/sig",
                    ], input: data))
            return result.status
        }
        #expect(try verify(zip) == 0)
        var tampered = zip
        tampered[tampered.count / 2] ^= 1
        #expect(try verify(tampered) != 0, "the check can fail")
    }

    @Test func sameZipAndKey_sameBytes() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let key = try Packing.key(in: tmp.path)
        #expect(try CRX3.make(zip: zip, key: key) == CRX3.make(zip: zip, key: key))
    }

    @Test func parse_refusesWhatIsNotCRX3() throws {
        #expect(throws: PackError.self) { try CRX3.parse(zip) }
        #expect(throws: PackError.self) { try CRX3.parse(Array("Cr24".utf8) + [2, 0, 0, 0, 0, 0, 0, 0]) }
        #expect(throws: PackError.self) { try CRX3.parse(Array("Cr24".utf8) + [3, 0, 0, 0, 9, 0, 0, 0, 0x12]) }
    }
}

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
}
