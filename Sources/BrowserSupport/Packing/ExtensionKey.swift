import BridgeJSON
import BridgeSystem

/// An extension's RSA key pair. The public key goes into a manifest's `key`
/// (so the Chromium id is fixed and `allowed_origins` can name it) and into
/// a CRX's header; the private key signs CRX packages with that id and never
/// goes into the extension folder. `extension-bridge new` makes one per
/// project; `pack` uses the project's, one given with `--key`, or the
/// machine's (`machineKeyPath(home:environment:)`).
public struct ExtensionKey: Equatable, Sendable {
    /// The private key, PEM.
    public var privateKeyPEM: [UInt8]
    /// The public key, DER SubjectPublicKeyInfo.
    public var publicKeyDER: [UInt8]
    /// The file the private key was read from or saved to; openssl signs from it. Nil for a key made in memory.
    public var privateKeyPath: String?

    /// The longest key file read, in bytes (a 4096-bit PEM is about 3.3 KB).
    public static let fileLimit = 64 << 10

    public init(privateKeyPEM: [UInt8], publicKeyDER: [UInt8], privateKeyPath: String? = nil) {
        self.privateKeyPEM = privateKeyPEM
        self.publicKeyDER = publicKeyDER
        self.privateKeyPath = privateKeyPath
    }

    /// The manifest's `key`: base64 of the DER public key.
    public var manifestKey: String { Base64.encode(publicKeyDER) }
    /// The Chromium id the key gives: a CRX signed with it installs under this id.
    public var chromiumID: String { ExtensionIdentity.chromiumID(fromKey: manifestKey) ?? "" }

    /// The machine's own signing key, for `pack` without `--key` or
    /// `--config`: `keys/extension-bridge.pem` in the folder that holds the
    /// install receipt (`~/.local/share/extension-bridge/` on Linux,
    /// `~/Library/Application Support/ExtensionBridge/` on macOS).
    /// - Parameters:
    ///   - home: the home folder.
    ///   - environment: where `XDG_DATA_HOME` is read.
    /// - Returns: the key file's path (it may not exist yet; `loadOrCreate(at:searchPath:)` makes it).
    public static func machineKeyPath(home: String, environment: Environment) -> String {
        FileSystem.parentPath(Installer.defaultReceiptPath(home: home, environment: environment))
            + "/keys/extension-bridge.pem"
    }

    /// A fresh 2048-bit RSA key pair from the system's `openssl` (the same
    /// tool Chromium's docs use for extension keys), held in memory only.
    /// - Parameter searchPath: `PATH`, where `openssl` is looked for.
    /// - Throws: `PackError.opensslMissing` (exit 69) or `.opensslFailed`.
    public static func generate(searchPath: String?) throws(PackError) -> ExtensionKey {
        let openssl = try OpenSSL.locate(searchPath: searchPath, purpose: "make an extension key pair")
        let privateKey = try openssl.run(
            ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-outform", "PEM"], input: [])
        let publicKey = try openssl.run(["pkey", "-pubout", "-outform", "DER", "-passin", "pass:"], input: privateKey)
        let key = ExtensionKey(privateKeyPEM: privateKey, publicKeyDER: publicKey)
        guard publicKey.count == 294, ExtensionIdentity.isChromiumID(key.chromiumID) else {
            throw .opensslFailed("openssl made an unexpected key (\(publicKey.count) bytes of DER, not 294)")
        }
        return key
    }

    /// Reads the private key at `path` and derives its public key.
    ///
    /// Refuses a link (it could point anywhere), anything but a regular
    /// file, a file that group or others may read or write (the key
    /// would be someone else's too), and a key that fails `PathTrust` (another
    /// user's file, or in a folder others may write): the message says how to fix it.
    /// - Parameters:
    ///   - path: a PEM private key (RSA, unencrypted).
    ///   - searchPath: `PATH`, where `openssl` is looked for.
    ///   - userID: the user the key and its folders must belong to (or root), as `PathTrust` has it.
    /// - Throws: `PackError.keyMissing` (66), `.keyUnsafe` or `.keyInvalid` (65), `.untrustedInput` (77),
    ///   `.opensslMissing` (69), `.io` (74).
    public static func load(
        from path: String, searchPath: String?, userID: UInt32 = Platform.effectiveUserID
    ) throws(PackError) -> ExtensionKey {
        let status: FileStatus?
        do {
            status = try FileSystem.status(path)
        } catch {
            throw .io(error)
        }
        guard let status else { throw .keyMissing(path: path) }
        if status.isSymbolicLink {
            throw .keyUnsafe(
                path: path, reason: "it is a symbolic link",
                fix: "pass the real file's path with --key (a link can be pointed at another key)")
        }
        guard status.isRegular else {
            throw .keyUnsafe(path: path, reason: "it is not a regular file", fix: "pass a PEM file with --key")
        }
        if status.permissions & 0o077 != 0 {
            let mode = String(status.permissions & 0o777, radix: 8)
            throw .keyUnsafe(
                path: path, reason: "group or others may read or write it (mode \(mode))",
                fix: "run chmod 600 '\(path)' (and make a new key if others may have copied it)")
        }
        // Another user who could swap the key (its folder theirs to write, or the file theirs) would know
        // the private half of the id the package gets.
        let absolute = FileSystem.absolutePath(path, from: FileSystem.currentDirectory() ?? "/")
        if let refusal = PathTrust.refusal(absolute, userID: userID) { throw .untrustedInput(refusal) }
        let pem: [UInt8]
        do {
            pem = try FileSystem.readFile(path, noFollow: true, limit: fileLimit + 1)
        } catch {
            throw error.isNotFound ? .keyMissing(path: path) : .io(error)
        }
        guard pem.count <= fileLimit else { throw .keyInvalid(path: path, reason: "larger than 64 KiB") }
        guard occurs(Array("-----BEGIN ".utf8), in: pem) else {
            throw .keyInvalid(path: path, reason: "not PEM (no -----BEGIN line)")
        }
        let openssl = try OpenSSL.locate(searchPath: searchPath, purpose: "read the signing key")
        let publicKey: [UInt8]
        do {
            // -passin pass: makes an encrypted key fail at once instead of prompting.
            publicKey = try openssl.run(["pkey", "-pubout", "-outform", "DER", "-passin", "pass:"], input: pem)
        } catch {
            if case .opensslFailed(let text) = error { throw .keyInvalid(path: path, reason: text) }
            throw error
        }
        // rsaEncryption, 1.2.840.113549.1.1.1: CRX3's sha256_with_rsa proofs take RSA keys only.
        let rsaOID: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]
        guard occurs(rsaOID, in: publicKey) else {
            throw .keyInvalid(path: path, reason: "not an RSA key (CRX3 signs with RSA)")
        }
        return ExtensionKey(privateKeyPEM: pem, publicKeyDER: publicKey, privateKeyPath: path)
    }

    /// Reads the key at `path`, or makes one there when there is none: its
    /// folder is created mode 0700, the file 0600, written to a temporary
    /// file and linked into place, so a reader never sees half a key and two
    /// runs at once end with one key. See `load(from:searchPath:)` for what
    /// is refused.
    /// - Parameters:
    ///   - path: the key file.
    ///   - searchPath: `PATH`, where `openssl` is looked for.
    /// - Returns: the key, and whether it was made now (say so: it is a new id).
    public static func loadOrCreate(at path: String, searchPath: String?) throws(PackError) -> (
        key: ExtensionKey, created: Bool
    ) {
        let existing: FileStatus?
        do {
            existing = try FileSystem.status(path)
        } catch {
            throw .io(error)
        }
        if existing != nil { return (try load(from: path, searchPath: searchPath), false) }
        let fresh = try generate(searchPath: searchPath)
        do {
            try FileSystem.makeDirectories(FileSystem.parentPath(path), permissions: 0o700)
            try FileSystem.writeAtomically(path, fresh.privateKeyPEM, permissions: 0o600, exclusive: true)
        } catch {
            // Another run made it meanwhile: use that one.
            if error.code == Errno.exists { return (try load(from: path, searchPath: searchPath), false) }
            throw .io(error)
        }
        var key = fresh
        key.privateKeyPath = path
        return (key, true)
    }

    /// Signs `bytes` with the private key: RSASSA-PKCS1-v1_5 over SHA-256,
    /// deterministic (the same bytes give the same signature), what CRX3's
    /// `sha256_with_rsa` proofs hold. Runs `openssl dgst -sha256 -sign` on
    /// the key's file with `bytes` on stdin.
    /// - Parameters:
    ///   - bytes: the data to sign.
    ///   - searchPath: `PATH`, where `openssl` is looked for.
    /// - Returns: the signature, as long as the key's modulus.
    /// - Throws: `PackError.keyNotSaved` for a key with no file, `.opensslMissing`, `.opensslFailed`.
    public func sign(_ bytes: [UInt8], searchPath: String? = nil) throws(PackError) -> [UInt8] {
        guard let privateKeyPath else { throw .keyNotSaved }
        let openssl = try OpenSSL.locate(searchPath: searchPath, purpose: "sign the CRX")
        return try openssl.run(
            ["dgst", "-sha256", "-binary", "-passin", "pass:", "-sign", privateKeyPath], input: bytes)
    }

    /// True when `needle` occurs in `bytes`.
    private static func occurs(_ needle: [UInt8], in bytes: [UInt8]) -> Bool {
        guard !needle.isEmpty, bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
