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
