import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

/// `PrivateKeyScan`: every form a private key is kept in that openssl writes, found; public keys,
/// certificates and a library's PEM constants, not.
@Suite struct PrivateKeyScanTests {
    /// openssl's output for `arguments` (a key made in `folder`); nil without openssl.
    func openssl(_ arguments: [String], input: [UInt8] = []) throws -> [UInt8] {
        let result = try #require(try Packing.run("/usr/bin/openssl", arguments, input: input), "openssl is missing")
        try #require(result.status == 0, "\(String(decoding: result.stderr, as: UTF8.self))")
        return result.stdout
    }

    /// A self-signed certificate for `pem`.
    func certificate(_ pem: [UInt8]) throws -> [UInt8] {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/k.pem", pem)
        return try openssl(["req", "-x509", "-new", "-key", tmp.path + "/k.pem", "-subj", "/CN=x", "-days", "1"])
    }

    /// A PKCS#12 bundle of `pem` and a certificate for it, as browsers and keychains export one.
    func pkcs12(_ pem: [UInt8]) throws -> [UInt8] {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/k.pem", pem)
        _ = try openssl([
            "req", "-x509", "-new", "-key", tmp.path + "/k.pem", "-subj", "/CN=x", "-days", "1", "-out",
            tmp.path + "/c.pem",
        ])
        return try openssl([
            "pkcs12", "-export", "-inkey", tmp.path + "/k.pem", "-in", tmp.path + "/c.pem", "-passout", "pass:x",
        ])
    }

    @Test func everyFormOfAPrivateKey_isFound() throws {
        let pem = try openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"])
        let forms: [String: [UInt8]] = [
            "PKCS#8 PEM": pem,
            "PKCS#1 PEM": try openssl(["pkey", "-traditional"], input: pem),
            "encrypted PKCS#8": try openssl(["pkey", "-aes256", "-passout", "pass:x"], input: pem),
            "encrypted PKCS#1": try openssl(["rsa", "-traditional", "-aes128", "-passout", "pass:x"], input: pem),
            "PKCS#8 DER": try openssl(["pkey", "-outform", "DER"], input: pem),
            "PKCS#1 DER": try openssl(["rsa", "-traditional", "-outform", "DER"], input: pem),
            "EC PEM": try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]),
            "EC SEC1 DER": try openssl(
                ["ec", "-outform", "DER"],
                input: openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout"])),
            "Ed25519 PEM": try openssl(["genpkey", "-algorithm", "ED25519"]),
            // Pasted into a script, line breaks written as \n: published just the same.
            "in a JavaScript string": Array(
                ("const key = \"" + String(decoding: pem, as: UTF8.self).replacingOccurrences(of: "\n", with: "\\n")
                    + "\";\n").utf8),
            "PKCS#12": try pkcs12(pem),
            "PuTTY": Array("PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\n".utf8),
            "OpenSSH": Array(
                "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtz\n"
                    .utf8),
        ]
        for (name, bytes) in forms {
            #expect(PrivateKeyScan.holdsPrivateKey(bytes), "\(name)")
        }
    }

    @Test func publicKeysCertificatesAndConstants_areNotKeys() throws {
        let pem = try openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"])
        let forms: [String: [UInt8]] = [
            "public PEM": try openssl(["pkey", "-pubout"], input: pem),
            "public DER": try openssl(["pkey", "-pubout", "-outform", "DER"], input: pem),
            "certificate PEM": try certificate(pem),
            "certificate DER": try openssl(["x509", "-outform", "DER"], input: certificate(pem)),
            "a library's constant": Array(
                "const HEADER = '-----BEGIN PRIVATE KEY-----', FOOTER = '-----END PRIVATE KEY-----';\n".utf8),
            "a PNG": [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0x30, count: 64),
            "empty": [],
        ]
        for (name, bytes) in forms {
            #expect(!PrivateKeyScan.holdsPrivateKey(bytes), "\(name)")
        }
    }
}
