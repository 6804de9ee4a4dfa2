/// The CRX3 package format Chromium installs from: the magic `Cr24`, the
/// format version 3 and the header's length (little-endian 32-bit each), a
/// protobuf `CrxFileHeader`, then the zip.
///
/// ```
/// message CrxFileHeader { repeated AsymmetricKeyProof sha256_with_rsa = 2; bytes signed_header_data = 10000; }
/// message AsymmetricKeyProof { bytes public_key = 1; bytes signature = 2; }
/// message SignedData { bytes crx_id = 1; }   // signed_header_data
/// ```
///
/// `crx_id` is the first 16 bytes of SHA-256 of the DER public key (the
/// extension id, before it is spelled in the letters a–p). The signature is
/// RSASSA-PKCS1-v1_5 SHA-256 over `"CRX3 SignedData\0"`, the length of
/// `signed_header_data` (little-endian 32-bit), `signed_header_data` and the
/// whole zip.
public enum CRX3 {
    /// The file's first four bytes.
    public static let magic: [UInt8] = Array("Cr24".utf8)
    /// The format version after the magic.
    public static let version: UInt32 = 3
    /// What the signed data starts with, its NUL included.
    public static let signatureContext: [UInt8] = Array("CRX3 SignedData".utf8) + [0]

    /// One `AsymmetricKeyProof`.
    public struct Proof: Equatable, Sendable {
        /// The DER SubjectPublicKeyInfo.
        public var publicKey: [UInt8]
        /// The signature over `signedPayload(signedHeaderData:zip:)`.
        public var signature: [UInt8]

        public init(publicKey: [UInt8], signature: [UInt8]) {
            self.publicKey = publicKey
            self.signature = signature
        }
    }

    /// The parts of a CRX3 file, read back.
    public struct Parsed: Equatable, Sendable {
        /// The `sha256_with_rsa` proofs.
        public var proofs: [Proof]
        /// The serialized `SignedData`.
        public var signedHeaderData: [UInt8]
        /// `SignedData.crx_id`.
        public var crxID: [UInt8]
        /// The zip that follows the header.
        public var zip: [UInt8]
    }

    /// `crx_id` for a DER public key: the first 16 bytes of its SHA-256.
    public static func crxID(publicKeyDER: [UInt8]) -> [UInt8] { Array(SHA256.digest(publicKeyDER).prefix(16)) }

    /// The serialized `SignedData { crx_id }` for a DER public key.
    public static func signedHeaderData(publicKeyDER: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        appendField(1, crxID(publicKeyDER: publicKeyDER), to: &out)
        return out
    }

    /// The bytes the signature covers: the context, the length of
    /// `signedHeaderData`, `signedHeaderData` and the zip.
    public static func signedPayload(signedHeaderData: [UInt8], zip: [UInt8]) -> [UInt8] {
        var out = signatureContext
        out.reserveCapacity(out.count + 4 + signedHeaderData.count + zip.count)
        out.appendLittleEndian(UInt32(truncatingIfNeeded: signedHeaderData.count))
        out += signedHeaderData
        out += zip
        return out
    }

    /// A CRX3 of `zip` signed with `key` (its file, through openssl).
    /// - Parameters:
    ///   - zip: the package's zip.
    ///   - key: the signing key; the CRX installs under `key.chromiumID`.
    ///   - searchPath: `PATH`, where `openssl` is looked for.
    /// - Returns: the CRX's bytes; the same zip and key give the same bytes.
    /// - Throws: what `ExtensionKey.sign(_:searchPath:)` throws.
    public static func make(zip: [UInt8], key: ExtensionKey, searchPath: String? = nil) throws(PackError) -> [UInt8] {
        let signed = signedHeaderData(publicKeyDER: key.publicKeyDER)
        let signature = try key.sign(signedPayload(signedHeaderData: signed, zip: zip), searchPath: searchPath)
        return assemble(zip: zip, publicKeyDER: key.publicKeyDER, signature: signature)
    }

    /// Lays out a CRX3 from its parts (the signature already made).
    public static func assemble(zip: [UInt8], publicKeyDER: [UInt8], signature: [UInt8]) -> [UInt8] {
        var proof: [UInt8] = []
        appendField(1, publicKeyDER, to: &proof)
        appendField(2, signature, to: &proof)
        var header: [UInt8] = []
        appendField(2, proof, to: &header)
        appendField(10_000, signedHeaderData(publicKeyDER: publicKeyDER), to: &header)
        var out = magic
        out.reserveCapacity(12 + header.count + zip.count)
        out.appendLittleEndian(version)
        out.appendLittleEndian(UInt32(truncatingIfNeeded: header.count))
        out += header
        out += zip
        return out
    }

    /// Reads a CRX3's header back (the signature is not checked here).
    /// - Throws: `PackError.corruptArchive` saying what is wrong.
    public static func parse(_ bytes: [UInt8]) throws(PackError) -> Parsed {
        guard bytes.count >= 12, bytes.starts(with: magic) else { throw .corruptArchive("no Cr24 magic") }
        guard bytes.readLittleEndianUInt32(at: 4) == version else {
            throw .corruptArchive("CRX version \(bytes.readLittleEndianUInt32(at: 4)), not 3")
        }
        let length = Int(bytes.readLittleEndianUInt32(at: 8))
        guard 12 + length <= bytes.count else { throw .corruptArchive("the header runs past the end") }
        let header = Array(bytes[12..<(12 + length)])
        var parsed = Parsed(proofs: [], signedHeaderData: [], crxID: [], zip: Array(bytes[(12 + length)...]))
        for (field, value) in try fields(header) {
            switch field {
            case 2:
                var proof = Proof(publicKey: [], signature: [])
                for (inner, part) in try fields(value) {
                    if inner == 1 { proof.publicKey = part } else if inner == 2 { proof.signature = part }
                }
                parsed.proofs.append(proof)
            case 10_000:
                parsed.signedHeaderData = value
                for (inner, part) in try fields(value) where inner == 1 { parsed.crxID = part }
            default:
                continue
            }
        }
        return parsed
    }

    /// Appends a length-delimited protobuf field (wire type 2).
    static func appendField(_ number: UInt64, _ value: [UInt8], to out: inout [UInt8]) {
        appendVarint(number << 3 | 2, to: &out)
        appendVarint(UInt64(value.count), to: &out)
        out += value
    }

    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        out.append(UInt8(rest))
    }

    /// The length-delimited fields of a protobuf message, in order; other
    /// wire types are skipped, anything malformed is refused.
    static func fields(_ message: [UInt8]) throws(PackError) -> [(UInt64, [UInt8])] {
        var out: [(UInt64, [UInt8])] = []
        var at = 0
        func varint() throws(PackError) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard at < message.count, shift < 64 else { throw .corruptArchive("a truncated varint in the header") }
                let byte = message[at]
                at += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }
        while at < message.count {
            let key = try varint()
            switch key & 7 {
            case 0: _ = try varint()
            case 1: at += 8
            case 5: at += 4
            case 2:
                let length = try varint()
                guard length <= UInt64(message.count - at) else {
                    throw .corruptArchive("a field runs past the header")
                }
                out.append((key >> 3, Array(message[at..<(at + Int(length))])))
                at += Int(length)
            default:
                throw .corruptArchive("wire type \(key & 7) in the header")
            }
            guard at <= message.count else { throw .corruptArchive("a field runs past the header") }
        }
        return out
    }
}
