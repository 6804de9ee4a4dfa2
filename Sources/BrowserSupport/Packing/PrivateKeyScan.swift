/// Whether a file holds a private key, so that no package carries one: a
/// store upload publishes every file it holds, and with a signing key the
/// extension's identity.
///
/// Found: a PEM block whose label names a private key (`PRIVATE KEY`, `RSA
/// PRIVATE KEY`, `EC PRIVATE KEY`, `ENCRYPTED PRIVATE KEY`, `OPENSSH PRIVATE
/// KEY`, `PGP PRIVATE KEY BLOCK`) followed by key data, anywhere in the file
/// (a key pasted into a script is published too, also with its line breaks
/// written as `\n`); a PuTTY key file; and a file that is a whole DER private
/// key (PKCS#1, PKCS#8, SEC1) or PKCS#12 bundle. Not found: a key in a format
/// none of these is (a JWK in JSON, say), and a file that only names a PEM
/// label without key data after it (a library's constant).
///
/// The signing key in hand is found in any form that keeps its base64
/// text (`holdsBody(of:in:)`): its body without the PEM lines, in a JSON
/// string say. Not found: a key compressed (gzip) or encoded otherwise.
public enum PrivateKeyScan {
    /// True when `bytes` hold a private key in one of the forms above.
    public static func holdsPrivateKey(_ bytes: [UInt8]) -> Bool {
        isDERPrivateKey(bytes) || hasPEMPrivateKey(bytes) || occurs(Array("PuTTY-User-Key-File-".utf8), in: bytes)
    }

    /// True when `bytes` hold the base64 body of the PEM key `pem` without its `-----` lines: its
    /// first 64 base64 characters (the first line of the body, and the start of the body with its
    /// line breaks removed). False when `pem` has fewer than 64 base64 characters.
    public static func holdsBody(of pem: [UInt8], in bytes: [UInt8]) -> Bool {
        let needle = bodyStart(of: pem)
        return needle.count == 64 && occurs(needle, in: bytes)
    }

    /// The first 64 base64 characters of a PEM key's body: its lines but the `-----` ones and
    /// headers (`Proc-Type: …`), line breaks removed.
    static func bodyStart(of pem: [UInt8]) -> [UInt8] {
        var body: [UInt8] = []
        for line in pem.split(whereSeparator: { $0 == 0x0A || $0 == 0x0D }) {
            if line.starts(with: Array("-----".utf8)) || line.contains(UInt8(ascii: ":")) { continue }
            body += line.filter { $0 != 0x20 && $0 != 0x09 }
            if body.count >= 64 { return Array(body.prefix(64)) }
        }
        return body
    }

    /// A PEM `-----BEGIN … PRIVATE KEY…-----` line with at least 40 base64 characters in a row
    /// within the next 256 bytes (after any `Proc-Type:`/`DEK-Info:` headers of an encrypted key).
    static func hasPEMPrivateKey(_ bytes: [UInt8]) -> Bool {
        let begin = Array("-----BEGIN ".utf8)
        let dashes = Array("-----".utf8)
        let label = Array("PRIVATE KEY".utf8)
        var index = 0
        while let start = firstIndex(of: begin, in: bytes, from: index) {
            index = start + begin.count
            guard let end = firstIndex(of: dashes, in: bytes, from: index), end - index <= 64,
                occurs(label, in: Array(bytes[index..<end]))
            else { continue }
            if hasBase64Run(bytes, from: end + dashes.count, within: 256, length: 40) { return true }
        }
        return false
    }

    /// A DER SEQUENCE that is the whole file, opening with the version of a private key structure:
    /// INTEGER 0 or 1 then an INTEGER (PKCS#1), a SEQUENCE (PKCS#8) or an OCTET STRING (SEC1);
    /// INTEGER 3 then a SEQUENCE (PKCS#12).
    static func isDERPrivateKey(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8, bytes[0] == 0x30 else { return false }
        var offset = 2
        var length = Int(bytes[1])
        if length & 0x80 != 0 {
            let width = length & 0x7F
            guard (1...3).contains(width), bytes.count > 2 + width else { return false }
            length = 0
            for byte in bytes[2..<(2 + width)] { length = length << 8 | Int(byte) }
            offset = 2 + width
        }
        guard offset + length == bytes.count, offset + 4 <= bytes.count, bytes[offset] == 0x02,
            bytes[offset + 1] == 0x01
        else { return false }
        let version = bytes[offset + 2]
        let next = bytes[offset + 3]
        switch version {
        case 0, 1: return next == 0x02 || next == 0x30 || next == 0x04
        case 3: return next == 0x30
        default: return false
        }
    }

    private static func hasBase64Run(_ bytes: [UInt8], from start: Int, within window: Int, length: Int) -> Bool {
        var run = 0
        var index = start
        while index < min(bytes.count, start + window) {
            let byte = bytes[index]
            let isBase64 =
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
            run = isBase64 ? run + 1 : 0
            if run >= length { return true }
            index += 1
        }
        return false
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        var index = start
        while index <= bytes.count - needle.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private static func occurs(_ needle: [UInt8], in bytes: [UInt8]) -> Bool {
        firstIndex(of: needle, in: bytes, from: 0) != nil
    }
}
