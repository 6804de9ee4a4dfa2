import BridgeSystem
import SharedSuite
import TestSupport
import Testing

/// `KeychainReader` against a stand-in for macOS's `/usr/bin/security` (a shell
/// script printing what the real one prints for `find-generic-password -g`:
/// the attributes on stdout, `password: …` in its `print_buffer` forms on
/// stderr, exit 44 for a missing item). The real `security` is untested here.
@Suite struct KeychainReaderTests {
    struct Fake {
        let tmp = TemporaryFolder()
        var tool: String { tmp.path + "/security" }

        /// A `security` that records its arguments (one a line) and its environment, then runs `script`.
        init(_ script: String) throws {
            try FileSystem.writeAtomically(
                tool,
                utf8: "#!/bin/sh\nlog=\(tmp.path)\nprintf '%s\\n' \"$@\" > \"$log/argv\"\nenv > \"$log/env\"\n"
                    + script, permissions: 0o755)
        }

        func reader(groupID: String = "group.test", _ extra: [String: String] = [:]) -> KeychainReader {
            var values = ["HOME": tmp.path, "PATH": "/usr/bin:/bin", "SECRET_MARKER": "x"]
            values.merge(extra) { $1 }
            return KeychainReader(groupID: groupID, environment: Environment(values), toolPath: tool)
        }

        func read(_ name: String) -> String {
            String(decoding: (try? FileSystem.readFile(tmp.path + "/" + name)) ?? [], as: UTF8.self)
        }
    }

    /// The attribute lines `security` prints for an item with `comment`.
    static func attributes(comment: String) -> String {
        """
        printf 'keychain: "/Users/u/Library/Keychains/login.keychain-db"\\nclass: "genp"\\nattributes:\\n'
        printf '    "acct"<blob>="api-token"\\n    "icmt"<blob>="\(comment)"\\n    "svce"<blob>="extension-bridge:group.test"\\n'
        """
    }

    @Test func readsAPrintableValue_withTheServiceAndAccount_andASmallEnvironment() throws {
        let fake = try Fake(
            Self.attributes(comment: "shared") + "\nprintf 'password: \"s3cr\"et v@lue\"\\n' >&2\n")
        defer { fake.tmp.remove() }
        let value = try fake.reader().value(named: "api-token", sharedOnly: true)
        #expect(value == Array("s3cr\"et v@lue".utf8))
        #expect(fake.read("argv") == "find-generic-password\n-s\nextension-bridge:group.test\n-a\napi-token\n-g\n--\n")
        let env = fake.read("env")
        #expect(env.contains("LC_ALL=C") && env.contains("HOME=\(fake.tmp.path)"))
        #expect(!env.contains("SECRET_MARKER"))
    }

    @Test func readsHexValues_soNewlinesAndUTF8Survive() throws {
        // "é\nx" is C3 A9 0A 78: printed as hex, then its rendering.
        let fake = try Fake("printf 'password: 0xC3A90A78  \"\\\\303\\\\251\\\\012x\"\\n' >&2\n")
        defer { fake.tmp.remove() }
        #expect(try fake.reader().value(named: "api-token", sharedOnly: false) == Array("é\nx".utf8))
        #expect(KeychainReader.decode(Array("0x0A7F ".utf8)) == [0x0A, 0x7F])
        #expect(KeychainReader.decode(Array("\"\"".utf8)) == [])
        #expect(KeychainReader.decode([]) == [])
    }

    @Test func sharedOnly_returnsNothingForAPrivateItem() throws {
        let fake = try Fake(Self.attributes(comment: "private") + "\nprintf 'password: \"v\"\\n' >&2\n")
        defer { fake.tmp.remove() }
        #expect(try fake.reader().value(named: "api-token", sharedOnly: true) == nil)
        #expect(try fake.reader().value(named: "api-token", sharedOnly: false) == Array("v".utf8))
    }

    @Test func exit44IsNotFound_otherExitsAreClearErrors() throws {
        let missing = try Fake(
            "echo 'security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain.' >&2\n"
                + "exit 44\n")
        defer { missing.tmp.remove() }
        #expect(try missing.reader().value(named: "api-token", sharedOnly: true) == nil)

        let denied = try Fake(
            "echo 'security: SecKeychainItemCopyContent: User interaction is not allowed.' >&2\nexit 51\n")
        defer { denied.tmp.remove() }
        #expect {
            _ = try denied.reader().value(named: "api-token", sharedOnly: true)
        } throws: { error in
            guard case .unavailable(let why) = error as? SecretError else { return false }
            return why.contains("denied") && why.contains("exit 51") && why.contains("User interaction is not")
        }

        let garbled = try Fake("printf 'password: secret\\n' >&2\n")
        defer { garbled.tmp.remove() }
        #expect(throws: SecretError.self) { try garbled.reader().value(named: "api-token", sharedOnly: false) }
    }

    @Test func hostileServiceOrAccount_isRefusedBeforeAnythingRuns() throws {
        let fake = try Fake("printf 'password: \"v\"\\n' >&2\n")
        defer { fake.tmp.remove() }
        for (group, name) in [
            ("-group", "api-token"), ("group.test", "-n"), ("group.test", "--help"), ("group.test", ""),
            ("group.test", "a\nb"), ("group.test", "a\u{0}b"), ("group\r.test", "a"), ("group.test", "a\u{7F}"),
        ] {
            #expect(throws: SecretError.self) {
                _ = try fake.reader(groupID: group).value(named: name, sharedOnly: false)
            }
        }
        #expect(fake.read("argv").isEmpty)
        #expect(throws: SecretError.self) { try KeychainReader.arguments(service: "extension-bridge:g", account: "-w") }
        // The service always starts with our application's name, so a hostile group id cannot lead with '-'.
        #expect(
            try KeychainReader.arguments(service: "extension-bridge:g", account: "a-b")
                == ["find-generic-password", "-s", "extension-bridge:g", "-a", "a-b", "-g", "--"])
    }

    @Test func tooMuchOutput_orNoAnswer_isUnavailable_neverATruncatedValue() throws {
        let flood = try Fake("head -c 500000 /dev/zero | tr '\\0' 'A' >&2\n")
        defer { flood.tmp.remove() }
        #expect(throws: SecretError.self) { try flood.reader().value(named: "api-token", sharedOnly: false) }

        let silent = try Fake("sleep 5\n")
        defer { silent.tmp.remove() }
        let started = MonotonicClock.system.milliseconds
        #expect {
            _ = try silent.reader(["EXTENSION_BRIDGE_SECRET_TIMEOUT_MS": "200"]).value(
                named: "api-token", sharedOnly: false)
        } throws: { error in
            guard case .unavailable(let why) = error as? SecretError else { return false }
            return why.contains("did not answer within 200 ms")
        }
        #expect(MonotonicClock.system.milliseconds - started < 4_000)
    }

    @Test func theHostsReaderOnlyReads() throws {
        let fake = try Fake("exit 0\n")
        defer { fake.tmp.remove() }
        let reader = fake.reader()
        #expect(throws: SecretError.self) { try reader.store([1], named: "a", shared: true) }
        #expect(throws: SecretError.self) { try reader.delete(named: "a") }
        #expect(throws: SecretError.self) { try reader.list() }
        #expect(fake.read("argv").isEmpty)
        let absent = KeychainReader(groupID: "group.test", environment: Environment([:]), toolPath: "/nowhere/security")
        #expect(throws: SecretError.self) { try absent.value(named: "a", sharedOnly: false) }
    }
}
