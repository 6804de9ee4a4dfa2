import BridgeJSON
import BridgeSystem
import BrowserSupport

/// A key pair for the generated extension: the public key goes into the
/// manifest's `key` (so the Chromium id is fixed and `allowed_origins` can
/// name it); the private key signs a packed `.crx` with the same id and never
/// goes into the extension folder.
public struct ExtensionKey: Equatable, Sendable {
    /// The private key, PKCS#8 PEM.
    public var privateKeyPEM: [UInt8]
    /// The public key, DER SubjectPublicKeyInfo.
    public var publicKeyDER: [UInt8]

    public init(privateKeyPEM: [UInt8], publicKeyDER: [UInt8]) {
        self.privateKeyPEM = privateKeyPEM
        self.publicKeyDER = publicKeyDER
    }

    /// The manifest's `key`: base64 of the DER public key.
    public var manifestKey: String { Base64.encode(publicKeyDER) }
    /// The Chromium id the key gives.
    public var chromiumID: String { ExtensionIdentity.chromiumID(fromKey: manifestKey) ?? "" }

    /// A fresh 2048-bit RSA key pair from the system's `openssl` (Debian's
    /// `openssl` package; the same tool Chromium's docs use for extension keys).
    /// - Parameter searchPath: `PATH`, where `openssl` is looked for.
    public static func generate(searchPath: String?) throws(GeneratorError) -> ExtensionKey {
        let folders = (searchPath ?? "/usr/bin:/bin").split(separator: ":").map(String.init) + ["/usr/bin"]
        guard let openssl = folders.map({ $0 + "/openssl" }).first(where: FileSystem.isExecutable) else {
            throw .unavailable(
                "openssl is needed to make the extension's key pair and was not found on PATH; "
                    + "install it (sudo apt-get install openssl) and run extension-bridge new again")
        }
        let environment = ["PATH": "/usr/bin:/bin"]
        let privateKey = try run(
            openssl, ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-outform", "PEM"],
            input: [], environment: environment)
        let publicKey = try run(
            openssl, ["pkey", "-pubout", "-outform", "DER"], input: privateKey, environment: environment)
        let key = ExtensionKey(privateKeyPEM: privateKey, publicKeyDER: publicKey)
        guard publicKey.count == 294, ExtensionIdentity.isChromiumID(key.chromiumID) else {
            throw .unavailable("openssl made an unexpected key (\(publicKey.count) bytes of DER, not 294)")
        }
        return key
    }

    private static func run(_ tool: String, _ arguments: [String], input: [UInt8], environment: [String: String])
        throws(GeneratorError) -> [UInt8]
    {
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(
                tool, arguments: arguments, environment: environment, workingDirectory: nil, input: input,
                timeoutMilliseconds: 60_000)
        } catch {
            throw .unavailable("cannot run \(tool): \(error)")
        }
        guard result.status == 0, !result.timedOut, !result.stdout.isEmpty else {
            let message = String(decoding: result.stderr.prefix(300), as: UTF8.self)
            throw .unavailable("\(tool) \(arguments.first ?? "") failed (exit \(result.status)): \(message)")
        }
        return result.stdout
    }
}
