import BridgeJSON
import Foundation
import TestSupport
import Testing

/// `extension-bridge secret` and the host's `getSecret` with the real
/// binaries. With `EXTENSION_BRIDGE_TEST_KEYRING=1` (set by
/// `scripts/e2e/secrets-test.sh`, which starts a private session bus and an
/// unlocked gnome-keyring-daemon) they go to the real Secret Service; without
/// a bus they must say `secrets_unavailable`.
@Suite struct SecretsTests {
    static let origin = "chrome-extension://testext/"
    static let keyring = ProcessInfo.processInfo.environment["EXTENSION_BRIDGE_TEST_KEYRING"] == "1"
    /// `secrets-test.sh` stored `probe` (shared) in `group.test.locked`, then locked the keyring.
    static let lockedKeyring = ProcessInfo.processInfo.environment["EXTENSION_BRIDGE_TEST_KEYRING"] == "locked"

    /// The session's bus and keyring, when the keyring tests run.
    static var session: [String: String] {
        let env = ProcessInfo.processInfo.environment
        var pass: [String: String] = [:]
        for name in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "HOME", "TMPDIR"] { pass[name] = env[name] }
        return pass
    }

    func environment(_ tmp: TemporaryFolder, group: String, _ extra: [String: String] = [:]) -> [String: String] {
        var env = Self.keyring || Self.lockedKeyring ? Self.session : ["HOME": tmp.path]
        env.merge([
            "PATH": "/usr/bin:/bin", "EXTENSION_BRIDGE_CONTAINER": tmp.path + "/c", "EXTENSION_BRIDGE_GROUP": group,
            "EXTENSION_BRIDGE_ALLOWED_CALLERS": Self.origin,
        ]) { $1 }
        env.merge(extra) { $1 }
        return env
    }

    func cli(_ env: [String: String], _ args: [String], input: String = "") throws -> Finished {
        try runProcess(Binaries.cli, args, environment: env, input: Array(input.utf8))
    }

    func getSecret(_ env: [String: String], _ name: String) throws -> JSONValue? {
        let result = try runProcess(
            Binaries.host, [Self.origin], environment: env,
            input: frameBytes(["action": "getSecret", "name": .string(name), "id": 1]))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("ebv-"), "the log holds a value: \(result.stderr)")
        return try splitFrames(result.stdout).first
    }

    /// Every file under `folders` that holds `value`'s bytes.
    func filesHolding(_ value: String, under folders: [String]) -> [String] {
        let needle = Data(value.utf8)
        var found: [String] = []
        for folder in folders {
            guard let walker = FileManager.default.enumerator(atPath: folder) else { continue }
            for case let relative as String in walker {
                let path = folder + "/" + relative
                guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                    attributes[.type] as? FileAttributeType == .typeRegular,
                    (attributes[.size] as? Int ?? 0) < 64 << 20,
                    let data = FileManager.default.contents(atPath: path)
                else { continue }
                if data.range(of: needle) != nil { found.append(path) }
            }
        }
        return found
    }

    func everyFolder(_ tmp: TemporaryFolder) -> [String] {
        [tmp.path] + ["HOME", "TMPDIR", "XDG_RUNTIME_DIR"].compactMap { Self.session[$0] }
    }

    @Test(.enabled(if: keyring)) func roundTrip_setGetListDelete_throughTheRealKeyring() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let group = "group.test.roundtrip"
        let env = environment(tmp, group: group)
        let value = "ebv-\(UUID().uuidString)-ünï\ncode"
        let suite = ["--suite", group, "secret"]
        var result = try cli(env, suite + ["set", "api-token", "--shared"], input: value + "\n")
        #expect(result.status == 0, "\(result.stderr)")
        result = try cli(env, suite + ["set", "db-password"], input: "ebv-private")
        #expect(result.status == 0, "\(result.stderr)")
        result = try cli(env, suite + ["get", "api-token"])
        #expect(result.status == 0)
        #expect(result.outText == value + "\n")
        result = try cli(env, suite + ["list"])
        #expect(result.outText == "api-token\tshared\ndb-password\tprivate\n", "\(result.stderr)")
        #expect(!result.outText.contains("ebv-"))
        // Re-set without --shared: one item, no longer shared.
        #expect(try cli(env, suite + ["set", "api-token"], input: value).status == 0)
        #expect(try cli(env, suite + ["list"]).outText == "api-token\tprivate\ndb-password\tprivate\n")
        #expect(filesHolding(value, under: everyFolder(tmp)).isEmpty)
        #expect(filesHolding("ebv-private", under: everyFolder(tmp)).isEmpty)
        // The scan covers the keyring's own file, and would see a value written in the clear.
        let keyringFile = (Self.session["HOME"] ?? "") + "/.local/share/keyrings/login.keyring"
        #expect(FileManager.default.fileExists(atPath: keyringFile))
        try Data(value.utf8).write(to: URL(fileURLWithPath: tmp.path + "/control"))
        #expect(Set(filesHolding(value, under: everyFolder(tmp))) == [tmp.path + "/control"])
        try FileManager.default.removeItem(atPath: tmp.path + "/control")
        #expect(try cli(env, suite + ["delete", "api-token"]).status == 0)
        #expect(try cli(env, suite + ["delete", "db-password"]).status == 0)
        #expect(try cli(env, suite + ["get", "api-token"]).status == 66)
        #expect(try cli(env, suite + ["delete", "api-token"]).status == 66)
        #expect(try cli(env, suite + ["list"]).outText == "")
        // doctor says secrets work for this user.
        let doctor = try cli(env, ["--suite", group, "--json", "doctor", "--browser", "chromium"])
        #expect(try JSONParser.parse(doctor.stdout)["secrets"]?["status"] == "ok", "\(doctor.outText)")
    }

    @Test(.enabled(if: keyring)) func realHost_answersSharedSecretsOnly_andAnotherGroupSeesNone() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let group = "group.test.host"
        let env = environment(tmp, group: group, ["EXTENSION_BRIDGE_LOG": "debug"])
        let value = "ebv-\(UUID().uuidString)"
        let suite = ["--suite", group, "secret"]
        #expect(try cli(env, suite + ["set", "shared-token", "--shared"], input: value).status == 0)
        #expect(try cli(env, suite + ["set", "private-token"], input: "ebv-private-host").status == 0)
        #expect(
            try getSecret(env, "shared-token") == [
                "status": "success", "name": "shared-token", "value": .string(value), "id": 1,
            ])
        let notShared = try getSecret(env, "private-token")
        #expect(notShared?["code"] == "secret_not_shared")
        #expect(!"\(String(describing: notShared))".contains("ebv-"))
        #expect(try getSecret(env, "missing")?["code"] == "secret_not_found")

        // A second group, same user, same keyring: sees nothing of the first.
        let other = environment(tmp, group: "group.test.other")
        #expect(try getSecret(other, "shared-token")?["code"] == "secret_not_found")
        #expect(try cli(other, ["--suite", "group.test.other", "secret", "get", "shared-token"]).status == 66)
        #expect(try cli(other, ["--suite", "group.test.other", "secret", "list"]).outText == "")

        #expect(filesHolding(value, under: everyFolder(tmp)).isEmpty)
        #expect(filesHolding("ebv-private-host", under: everyFolder(tmp)).isEmpty)
        #expect(try cli(env, suite + ["delete", "shared-token"]).status == 0)
        #expect(try cli(env, suite + ["delete", "private-token"]).status == 0)
    }

    /// A server without a session bus: every verb and the action say
    /// `secrets_unavailable` (exit 69) and what to install or start; nothing
    /// is written in plain text instead. Starts from an empty HOME.
    @Test func noSessionBus_everyCommandAndTheAction_sayUnavailable_andStoreNothing() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(atPath: tmp.path + "/run", withIntermediateDirectories: true)
        let noBus = [
            "HOME": tmp.path, "PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": tmp.path + "/run",
            "EXTENSION_BRIDGE_CONTAINER": tmp.path + "/c", "EXTENSION_BRIDGE_ALLOWED_CALLERS": Self.origin,
        ]
        var busNowhere = noBus
        busNowhere["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + tmp.path + "/run/no-such-bus"
        let value = "ebv-\(UUID().uuidString)"
        for env in [noBus, busNowhere] {
            for args in [["set", "k", "--shared"], ["get", "k"], ["delete", "k"], ["list"]] {
                let result = try cli(env, ["secret"] + args, input: value)
                #expect(result.status == 69, "\(args): \(result.stderr)")
                #expect(result.stderr.contains("secrets_unavailable"))
                #expect(result.stderr.contains("install") && result.stderr.contains("libsecret-tools"))
                #expect(result.outText.isEmpty)
            }
            let reply = try getSecret(env, "k")
            #expect(reply?["code"] == "secrets_unavailable")
            #expect(reply?["id"] == 1)
        }
        #expect(filesHolding(value, under: [tmp.path]).isEmpty)
        let env = noBus
        let doctor = try cli(env, ["--json", "doctor", "--browser", "chromium"])
        #expect(try JSONParser.parse(doctor.stdout)["secrets"]?["status"] == "warning", "\(doctor.outText)")
    }

    /// A locked keyring whose unlock prompt cannot be answered (no display
    /// for gcr-prompter): every verb and the action say secrets_unavailable,
    /// never "not found", and nothing is stored.
    @Test(.enabled(if: lockedKeyring)) func lockedKeyring_isUnavailable_neverNotFound() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let group = "group.test.locked"
        let env = environment(tmp, group: group)
        let suite = ["--suite", group, "secret"]
        for args in [["get", "probe"], ["delete", "probe"], ["set", "new"]] {
            let result = try cli(env, suite + args, input: "ebv-locked")
            #expect(result.status == 69, "\(args): \(result.stderr)")
            #expect(result.stderr.contains("secrets_unavailable") && result.stderr.contains("lock"), "\(result.stderr)")
        }
        #expect(try getSecret(env, "probe")?["code"] == "secrets_unavailable")
        #expect(try cli(env, suite + ["list"]).outText == "probe\tshared\n")
        #expect(filesHolding("ebv-locked", under: everyFolder(tmp)).isEmpty)
    }
}
