import BridgeProtocol
import BridgeSystem

/// Reads secrets from the macOS login Keychain by running Apple's own client,
/// `/usr/bin/security find-generic-password -s SERVICE -a ACCOUNT -g`, the
/// way `SecretServiceStore` runs `secret-tool`: so the host, which only reads
/// (`getSecret`), links no Foundation and no Security.framework on macOS
/// either. Writing, deleting and listing are the CLI's (`extension-bridge
/// secret`), through Security.framework in `BridgeKeychain`; here they refuse.
///
/// Items are the CLI's: service `extension-bridge:<group id>`, account the
/// name, comment `shared` or `private`. **Untested here** on macOS: the tests
/// run on Linux, against a fake `security` that prints what the real one
/// prints (its `print_buffer`: `"text"` for printable ASCII, `0x` and
/// upper-case hex otherwise; exit 44, `errSecItemNotFound`, when there is no
/// such item). `-g` is used rather than `-w` because `-w` prints a value with
/// any unprintable byte as bare hex, which cannot be told from a value that is
/// hex text.
public struct KeychainReader: SecretStore {
    public let groupID: String
    /// Read when a secret is first asked for, not before.
    private let environment: Environment
    /// `/usr/bin/security`; a test passes a fake.
    public let toolPath: String

    /// Apple's client, at the one place macOS installs it.
    public static let systemToolPath = "/usr/bin/security"
    /// `security`'s exit status for `errSecItemNotFound` (-25300 & 0xFF).
    public static let itemNotFoundStatus: Int32 = 44
    /// Most bytes kept of `security`'s stdout (the item's attributes) and stderr
    /// (the value, at worst four bytes of text per byte of value, twice): past
    /// either, the run is an error, never a truncated value.
    public static let outputLimits = (stdout: 65_536, stderr: 6 * SecretName.maxValueBytes + 4_096)

    public init(groupID: String, environment: Environment, toolPath: String = KeychainReader.systemToolPath) {
        self.groupID = groupID
        self.environment = environment
        self.toolPath = toolPath
    }

    public var backendName: String { "macOS Keychain through \(toolPath) (untested here)" }

    /// The service every item of the group is stored under.
    public var service: String { "\(SecretServiceStore.application):\(groupID)" }

    public func value(named name: String, sharedOnly: Bool) throws(SecretError) -> [UInt8]? {
        guard HostIdentity.isGroupID(groupID) else {
            throw .unavailable("the group id '\(SecretError.printable(groupID))' is not valid; nothing was read")
        }
        let arguments = try Self.arguments(service: service, account: name)
        guard Platform.isExecutableFile(toolPath) else {
            throw .unavailable("\(toolPath) is not there: the Keychain is read with macOS's own security tool")
        }
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var overflow = false
        let result: Subprocess.Result
        let timeout = SecretServiceStore(groupID: groupID, environment: environment).timeoutMilliseconds
        do {
            result = try Subprocess.run(
                toolPath, arguments: arguments, environment: toolEnvironment, workingDirectory: nil, input: [],
                timeoutMilliseconds: timeout
            ) { fromStandardError, bytes in
                if fromStandardError {
                    if stderr.count + bytes.count > Self.outputLimits.stderr {
                        overflow = true
                    } else {
                        stderr += bytes
                    }
                } else {
                    if stdout.count + bytes.count > Self.outputLimits.stdout {
                        overflow = true
                    } else {
                        stdout += bytes
                    }
                }
            }
        } catch {
            throw .unavailable("cannot run \(toolPath): \(error)")
        }
        if result.timedOut {
            throw .unavailable(
                "the Keychain did not answer within \(timeout) ms (a prompt nobody answered, or a locked"
                    + " keychain?): unlock it, allow the access, and try again")
        }
        if overflow { throw .unavailable("\(toolPath) printed more than a secret's worth; nothing was read") }
        return try Self.parse(
            status: result.status, stdout: stdout, stderr: stderr, sharedOnly: sharedOnly, toolPath: toolPath)
    }

    /// The arguments for `security` that read `service`/`account`. Refuses
    /// (`unavailable`) a value that is empty, starts with `-` (an option to a
    /// reader) or holds a control character (NUL cannot be in an argument at
    /// all; a newline would break the output's lines): every caller validated
    /// group and name already, this holds without them.
    public static func arguments(service: String, account: String) throws(SecretError) -> [String] {
        for (what, value) in [("service", service), ("account", account)] {
            guard let first = value.utf8.first, first != UInt8(ascii: "-") else {
                throw .unavailable("the Keychain \(what) '\(SecretError.printable(value))' is empty or starts with '-'")
            }
            guard !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw .unavailable(
                    "the Keychain \(what) '\(SecretError.printable(value))' holds a control character")
            }
        }
        // `-g` prints the attributes on stdout and the value on stderr. BSD getopt stops at `--`, so
        // nothing after it is read as an option; nothing follows it (no keychain: the default list).
        return ["find-generic-password", "-s", service, "-a", account, "-g", "--"]
    }

    /// The value `security find-generic-password -g` printed, nil when there is no
    /// item (exit 44) or, with `sharedOnly`, when its comment is not `shared`.
    public static func parse(
        status: Int32, stdout: [UInt8], stderr: [UInt8], sharedOnly: Bool, toolPath: String = systemToolPath
    ) throws(SecretError) -> [UInt8]? {
        if status == itemNotFoundStatus { return nil }
        guard status == 0 else { throw refusal(status: status, stderr: stderr, toolPath: toolPath) }
        let passwordLines = lines(stderr).filter { $0.starts(with: Array("password: ".utf8)) }
        guard passwordLines.count == 1, let field = passwordLines.first?.dropFirst("password: ".count) else {
            throw .unavailable("\(toolPath) printed no value (\(passwordLines.count) 'password:' lines)")
        }
        guard let value = decode(Array(field)) else {
            throw .unavailable("\(toolPath) printed a value in a form this version does not read")
        }
        if sharedOnly {
            let shared = lines(stdout).contains { line in
                let text = String(decoding: line, as: UTF8.self).drop { $0 == " " || $0 == "\t" }
                return text == "\"icmt\"<blob>=\"shared\""
            }
            if !shared { return nil }
        }
        return value
    }

    /// `print_buffer`'s forms: nothing (empty), `"text"` (bytes 0x20–0x7E but `\`),
    /// `0xHEX` optionally followed by spaces and a quoted rendering.
    public static func decode(_ field: [UInt8]) -> [UInt8]? {
        if field.isEmpty { return [] }
        if field.count >= 2, field.first == UInt8(ascii: "\""), field.last == UInt8(ascii: "\"") {
            let text = field.dropFirst().dropLast()
            guard text.allSatisfy({ (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "\\") }) else { return nil }
            return Array(text)
        }
        guard field.starts(with: Array("0x".utf8)) else { return nil }
        let hex = Array(field.dropFirst(2).prefix { $0 != UInt8(ascii: " ") })
        guard !hex.isEmpty, hex.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(hex.count / 2)
        var index = 0
        while index < hex.count {
            guard let high = hexDigit(hex[index]), let low = hexDigit(hex[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    private static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
    }

    /// A clear error for every other exit: what `security` said, and what to do.
    static func refusal(status: Int32, stderr: [UInt8], toolPath: String) -> SecretError {
        let said = SecretError.printable(
            String(decoding: stderr.prefix(400), as: UTF8.self).split(separator: "\n").joined(separator: "; "))
        let what: String
        switch status {
        case 36: what = "the Keychain is locked and cannot ask to be unlocked here (errSecInteractionNotAllowed)"
        case 51, 128: what = "access to the item was denied or the prompt was cancelled"
        default: what = "the Keychain refused"
        }
        return .unavailable(
            "\(what) (\(toolPath) exit \(status)\(said.isEmpty ? "" : ": \(said)")); unlock the login keychain,"
                + " allow the access, and try again")
    }

    /// What `security` sees: the account's home (the login keychain) and the C locale.
    private var toolEnvironment: [String: String] {
        var pass: [String: String] = ["LC_ALL": "C"]
        if let home = environment["HOME"] { pass["HOME"] = home }
        return pass
    }

    public func store(_ value: [UInt8], named name: String, shared: Bool) throws(SecretError) {
        throw Self.readOnly
    }

    public func delete(named name: String) throws(SecretError) { throw Self.readOnly }

    public func list() throws(SecretError) -> [SecretEntry] { throw Self.readOnly }

    private static var readOnly: SecretError {
        .unavailable("the host only reads the Keychain; set, delete and list with `extension-bridge secret`")
    }
}
