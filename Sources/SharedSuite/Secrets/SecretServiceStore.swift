import BridgeProtocol
import BridgeSystem

/// Secrets in the user's Secret Service (GNOME Keyring, KWallet, KeePassXC),
/// reached with libsecret's own client, `secret-tool`, over the session bus.
///
/// Every item carries the attributes `application=extension-bridge`,
/// `group=<group id>`, `name=<name>` and `shared=1|0`, and every lookup names
/// the first three, so two groups never see each other's secrets. Values go to
/// `secret-tool` on its stdin and come back on its stdout: never in its
/// arguments (which other users can read in `/proc`), never in a file.
///
/// `secret-tool` gets a small environment: `HOME`, `PATH`,
/// `DBUS_SESSION_BUS_ADDRESS` and `XDG_RUNTIME_DIR` (libsecret finds the bus
/// at `$XDG_RUNTIME_DIR/bus` when the address is unset), and no `DISPLAY`, so
/// it never autolaunches a bus of its own. Each run has a deadline
/// (`EXTENSION_BRIDGE_SECRET_TIMEOUT_MS`, default 30 s: time for a person to
/// answer an unlock prompt); past it the run is killed and the store is
/// `unavailable`.
public struct SecretServiceStore: SecretStore {
    public let groupID: String
    /// Read when a secret is first asked for, not before: the host starts for
    /// every one-shot message and most never touch a secret.
    private let environment: Environment

    /// The attribute that marks our items.
    public static let application = "extension-bridge"
    public static let defaultTimeoutMilliseconds: Int64 = 30_000

    public init(groupID: String, environment: Environment) {
        self.groupID = groupID
        self.environment = environment
    }

    /// The `secret-tool` to run: `EXTENSION_BRIDGE_SECRET_TOOL`, else the first on `PATH`.
    public var toolPath: String? {
        if let path = environment[EnvironmentVariable.secretTool] { return path }
        let searchPath = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return searchPath.map { "\($0)/secret-tool" }.first { Platform.isExecutableFile($0) }
    }

    /// `EXTENSION_BRIDGE_SECRET_TIMEOUT_MS` (1 ms to one day), else 30 s.
    public var timeoutMilliseconds: Int64 {
        guard let text = environment[EnvironmentVariable.secretTimeoutMilliseconds], let value = Int64(text) else {
            return Self.defaultTimeoutMilliseconds
        }
        return min(max(value, 1), 86_400_000)
    }

    /// What `secret-tool` sees: no `DISPLAY`, so it never autolaunches a bus.
    private var toolEnvironment: [String: String] {
        var pass: [String: String] = ["LC_ALL": "C"]
        for name in ["HOME", "PATH", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"] {
            if let value = environment[name] { pass[name] = value }
        }
        return pass
    }

    public var backendName: String { "Secret Service (\(toolPath ?? "secret-tool not installed"))" }

    public func store(_ value: [UInt8], named name: String, shared: Bool) throws(SecretError) {
        let label = "extension-bridge \(groupID): \(name)"
        let result = try run(["store", "--label=\(label)"] + attributes(name, shared: shared), input: value)
        // A store that worked prints nothing: output (a usage text) means it did something else.
        guard result.status == 0, result.stdout.isEmpty else { throw failure(result, doing: "store the secret") }
        // A secret stored earlier with the other mark is a different item: remove it.
        let other = try run(["clear"] + attributes(name, shared: !shared))
        guard other.status == 0 || isNoMatch(other) else { throw failure(other, doing: "replace the secret") }
    }

    public func value(named name: String, sharedOnly: Bool) throws(SecretError) -> [UInt8]? {
        let result = try run(["lookup"] + attributes(name, shared: sharedOnly ? true : nil))
        guard isNoMatch(result) else {
            guard result.status == 0 else { throw failure(result, doing: "read the secret") }
            return result.stdout
        }
        // A locked keyring whose unlock prompt was declined (or could not be
        // shown) answers a lookup like a missing item; `search` still sees
        // the item's attributes, so tell the two apart.
        if try list().contains(where: { $0.name == name && ($0.shared || !sharedOnly) }) {
            throw lockedKeyring(name)
        }
        return nil
    }

    /// What a locked keyring's refusal looks like: `lookup` and `clear` find
    /// nothing, `search` still lists the item.
    private func lockedKeyring(_ name: String) -> SecretError {
        .unavailable(
            "the keyring holding '\(name)' is locked and was not unlocked: unlock it (your login keyring's"
                + " password, or seahorse) and try again")
    }

    public func delete(named name: String) throws(SecretError) {
        let result = try run(["clear"] + attributes(name, shared: nil))
        if result.status == 0 && !result.stdout.isEmpty { throw failure(result, doing: "delete the secret") }
        if isNoMatch(result) {
            if try list().contains(where: { $0.name == name }) { throw lockedKeyring(name) }
            throw .notFound(name)
        }
        guard result.status == 0 else { throw failure(result, doing: "delete the secret") }
    }

    public func list() throws(SecretError) -> [SecretEntry] {
        // `search` writes each item's label and secret to stdout and its
        // attributes to stderr: read the names from stderr only (a value can
        // hold any text, a name cannot), once per mark. The values it loads
        // are dropped unread.
        var entries: [SecretEntry] = []
        for shared in [true, false] {
            let result = try run(["search", "--all", "--"] + groupAttributes + ["shared", shared ? "1" : "0"])
            if isNoMatch(result) { continue }
            guard result.status == 0 else { throw failure(result, doing: "list the secrets") }
            let lines = String(decoding: result.stderr, as: UTF8.self).split(separator: "\n")
            for line in lines where line.hasPrefix("attribute.name = ") {
                let name = String(line.dropFirst("attribute.name = ".count))
                if (try? SecretName.validate(name)) != nil { entries.append(SecretEntry(name: name, shared: shared)) }
            }
        }
        return entries.sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }

    private var groupAttributes: [String] { ["application", Self.application, "group", groupID] }

    /// The attributes after `--`: secret-tool parses its options with GOption,
    /// which stops at `--`, so no value (a group `--help`) is read as an option.
    private func attributes(_ name: String, shared: Bool?) -> [String] {
        ["--"] + groupAttributes + ["name", name] + (shared.map { ["shared", $0 ? "1" : "0"] } ?? [])
    }

    /// `lookup`, `clear` and `search` exit 1 with nothing on stderr when nothing matched.
    private func isNoMatch(_ result: Subprocess.Result) -> Bool {
        result.status == 1 && !result.timedOut && result.stderr.allSatisfy { $0 == UInt8(ascii: "\n") }
    }

    private func run(_ arguments: [String], input: [UInt8] = []) throws(SecretError) -> Subprocess.Result {
        // Every caller validates the group already; a store made without that check still touches nothing.
        guard HostIdentity.isGroupID(groupID) else {
            throw .unavailable(
                "the group id '\(SecretError.printable(groupID))' is not valid (letters, digits, '.', '-' and '_', "
                    + "not starting with '.' or '-'); nothing was stored")
        }
        let toolPath = self.toolPath
        let timeoutMilliseconds = self.timeoutMilliseconds
        guard let toolPath, Platform.isExecutableFile(toolPath) else {
            throw .unavailable(
                "secret-tool is not installed (\(toolPath ?? "not on PATH")): install libsecret-tools"
                    + " (sudo apt-get install libsecret-tools) and a Secret Service such as gnome-keyring;"
                    + " nothing was stored")
        }
        let outcome: Subprocess.Result
        do {
            outcome = try Subprocess.run(
                toolPath, arguments: arguments, environment: toolEnvironment, workingDirectory: nil, input: input,
                timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw .unavailable("cannot run \(toolPath): \(error); nothing was stored")
        }
        if outcome.timedOut {
            throw .unavailable(
                "the Secret Service did not answer within \(timeoutMilliseconds) ms (a locked keyring waiting"
                    + " for its password?): unlock the keyring and try again; nothing was stored")
        }
        return outcome
    }

    private func failure(_ result: Subprocess.Result, doing what: String) -> SecretError {
        let said = String(decoding: result.stderr.prefix(400), as: UTF8.self)
            .split(separator: "\n").map(String.init).joined(separator: "; ")
        return .unavailable(
            "could not \(what): \(SecretError.printable(said.isEmpty ? "secret-tool exit \(result.status)" : said))."
                + " Secrets need a running Secret Service on the session bus: install gnome-keyring (or enable"
                + " KeePassXC's or KWallet's Secret Service) and libsecret-tools, start it in your desktop session"
                + " (DBUS_SESSION_BUS_ADDRESS must be set), and unlock the keyring; nothing was stored in plain text")
    }
}
