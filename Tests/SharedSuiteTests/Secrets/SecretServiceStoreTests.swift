import BridgeSystem
import SharedSuite
import TestSupport
import Testing

/// `SecretServiceStore` against stand-ins for `secret-tool` (shell scripts
/// that record what they were given); the real one is in
/// `EndToEndTests/SecretsTests`.
@Suite struct SecretServiceStoreTests {
    /// A folder with a `secret-tool` made of `script`, and the store that runs it.
    struct Fake {
        let tmp = TemporaryFolder()
        var tool: String { tmp.path + "/secret-tool" }

        init(_ script: String) throws {
            try FileSystem.writeAtomically(
                tool, utf8: "#!/bin/sh\nlog=\(tmp.path)\n" + script, permissions: 0o755)
        }

        func store(_ extra: [String: String] = [:]) -> SecretServiceStore {
            SecretServiceStore(groupID: "group.test", environment: environment(extra))
        }

        func environment(_ extra: [String: String] = [:]) -> Environment {
            var values = [
                "EXTENSION_BRIDGE_SECRET_TOOL": tool, "HOME": tmp.path, "PATH": "/usr/bin:/bin",
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nowhere", "DISPLAY": ":0", "SECRET_MARKER": "x",
            ]
            values.merge(extra) { $1 }
            return Environment(values)
        }

        func read(_ name: String) -> String {
            String(decoding: (try? FileSystem.readFile(tmp.path + "/" + name)) ?? [], as: UTF8.self)
        }
    }

    @Test func store_passesTheValueOnStdin_neverInArguments_withTheGroupsAttributes() throws {
        let fake = try Fake(
            """
            echo "$*" >> "$log/argv"
            env > "$log/env"
            case "$1" in store) cat > "$log/stdin";; clear) exit 1;; esac
            """)
        defer { fake.tmp.remove() }
        try fake.store().store(Array("top-secret-value".utf8), named: "api-token", shared: true)
        let argv = fake.read("argv")
        #expect(fake.read("stdin") == "top-secret-value")
        #expect(!argv.contains("top-secret-value"))
        #expect(
            argv == "store --label=extension-bridge group.test: api-token -- application extension-bridge group"
                + " group.test name api-token shared 1\nclear -- application extension-bridge group group.test name"
                + " api-token shared 0\n"
        )
        // Only what libsecret needs: no DISPLAY (no autolaunched bus), nothing else of ours.
        let env = fake.read("env")
        #expect(env.contains("DBUS_SESSION_BUS_ADDRESS=unix:path=/nowhere"))
        #expect(!env.contains("DISPLAY") && !env.contains("SECRET_MARKER"))
    }

    @Test func lookup_asksForSharedOnlyWhenTold_andNoMatchIsNil() throws {
        let fake = try Fake(
            """
            echo "$*" >> "$log/argv"
            case "$*" in *"shared 1"*) printf 'v\\nline2';; *) exit 1;; esac
            """)
        defer { fake.tmp.remove() }
        let store = fake.store()
        #expect(try store.value(named: "a", sharedOnly: true) == Array("v\nline2".utf8))
        #expect(try store.value(named: "a", sharedOnly: false) == nil)
        #expect(fake.read("argv").contains("\nlookup -- application extension-bridge group group.test name a\n"))
    }

    @Test func list_readsNamesFromAttributes_neverFromValues() throws {
        // search prints values on stdout and attributes on stderr; a value
        // that looks like an attribute line must not become a name.
        let fake = try Fake(
            """
            case "$*" in
            *"shared 1"*) printf '[/1]\\nsecret = x\\nattribute.name = evil\\n'
                printf 'attribute.application = extension-bridge\\nattribute.name = zeta\\nattribute.name = a b\\n' >&2;;
            *"shared 0"*) printf 'attribute.name = alpha\\n' >&2;;
            esac
            """)
        defer { fake.tmp.remove() }
        #expect(
            try fake.store().list() == [
                SecretEntry(name: "alpha", shared: false), SecretEntry(name: "zeta", shared: true),
            ])
    }

    @Test func lockedKeyring_isUnavailable_notMissing() throws {
        // gnome-keyring with its unlock prompt declined: lookup and clear find
        // nothing, search still lists the item.
        let fake = try Fake(
            """
            case "$1 $*" in
            search*"shared 1"*) printf 'attribute.name = locked\\n' >&2;;
            *) exit 1;;
            esac
            """)
        defer { fake.tmp.remove() }
        let store = fake.store()
        do {
            _ = try store.value(named: "locked", sharedOnly: true)
            Issue.record("expected unavailable")
        } catch {
            #expect(error.description.contains("is locked"), "\(error)")
        }
        do {
            try store.delete(named: "locked")
            Issue.record("expected unavailable")
        } catch {
            #expect(error.description.contains("is locked"), "\(error)")
        }
        #expect(try store.value(named: "other", sharedOnly: true) == nil)
        #expect(throws: SecretError.notFound("other")) { try store.delete(named: "other") }
    }

    @Test func delete_ofNothing_isNotFound() throws {
        let fake = try Fake("exit 1\n")
        defer { fake.tmp.remove() }
        #expect(throws: SecretError.notFound("gone")) { try fake.store().delete(named: "gone") }
    }

    @Test func aToolThatFails_isUnavailable_withItsMessageEscaped() throws {
        let fake = try Fake("printf 'secret-tool: Cannot autolaunch D-Bus \\033]0;pwned\\007\\n' >&2; exit 1\n")
        defer { fake.tmp.remove() }
        do {
            _ = try fake.store().list()
            Issue.record("expected unavailable")
        } catch {
            guard case .unavailable(let why) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(why.contains("Cannot autolaunch D-Bus"))
            #expect(why.contains("install gnome-keyring"))
            #expect(!why.contains("\u{1b}") && !why.contains("\u{07}"))
        }
    }

    @Test func aToolThatHangs_isKilledAtTheDeadline() throws {
        let fake = try Fake("exec sleep 30\n")
        defer { fake.tmp.remove() }
        do {
            _ = try fake.store(["EXTENSION_BRIDGE_SECRET_TIMEOUT_MS": "200"]).value(named: "a", sharedOnly: true)
            Issue.record("expected unavailable")
        } catch {
            #expect("\(error)".contains("did not answer within 200 ms"))
        }
    }

    @Test func noTool_isUnavailable_sayingWhatToInstall() {
        let store = SecretServiceStore(
            groupID: "g", environment: Environment(["EXTENSION_BRIDGE_SECRET_TOOL": "/nonexistent/secret-tool"]))
        #expect(throws: SecretError.self) { try store.list() }
        do {
            _ = try store.list()
        } catch {
            #expect(error.description.contains("libsecret-tools"))
        }
        let none = SecretServiceStore(groupID: "g", environment: Environment(["PATH": "/nonexistent"]))
        #expect(none.toolPath == nil)
    }

    /// The real secret-tool (GOption) read a value
    /// `--help` as its option: exit 0 and its usage text, which `lookup`
    /// returned as the secret, with no session bus at all. Attributes now come
    /// after `--`. Runs only where secret-tool is installed.
    @Test func realSecretTool_anAttributeLikeAnOption_isAValue_neverItsUsage() throws {
        guard let tool = ["/usr/bin/secret-tool", "/bin/secret-tool"].first(where: Platform.isExecutableFile) else {
            return
        }
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        // No bus: nothing can succeed.
        let environment = Environment([
            "EXTENSION_BRIDGE_SECRET_TOOL": tool, "HOME": tmp.path, "PATH": "/usr/bin:/bin",
            "XDG_RUNTIME_DIR": tmp.path + "/no-runtime",
        ])
        let store = SecretServiceStore(groupID: "group.test", environment: environment)
        #expect(throws: SecretError.self) { try store.value(named: "--help", sharedOnly: true) }
        #expect(throws: SecretError.self) { try store.store(Array("v".utf8), named: "--help", shared: true) }
        #expect(throws: SecretError.self) { try store.delete(named: "--help") }
        // And a group id like an option is refused before secret-tool runs.
        let optionGroup = SecretServiceStore(groupID: "--help", environment: environment)
        #expect(throws: SecretError.self) { try optionGroup.value(named: "a", sharedOnly: true) }
        #expect(throws: SecretError.self) { try optionGroup.store(Array("v".utf8), named: "a", shared: true) }
        #expect(throws: SecretError.self) { try optionGroup.list() }
    }

    /// A group id like an option never reaches secret-tool, which would read it as one (and
    /// print its usage, exit 0, and look like an answer).
    @Test func aGroupLikeAnOption_neverRunsTheTool() throws {
        let fake = try Fake("echo \"$*\" >> \"$log/argv\"; echo 'Usage: secret-tool'; exit 0\n")
        defer { fake.tmp.remove() }
        for group in ["--help", "-h", ".x", "a b"] {
            let store = SecretServiceStore(groupID: group, environment: fake.environment())
            #expect(throws: SecretError.self) { try store.value(named: "a", sharedOnly: true) }
            #expect(throws: SecretError.self) { try store.store(Array("v".utf8), named: "a", shared: true) }
        }
        #expect(fake.read("argv").isEmpty)
    }

    /// A store or clear that printed (a usage text) and exited 0 stored nothing: it is no success.
    @Test func aToolThatPrintsAndExitsZero_isNoSuccess() throws {
        let fake = try Fake("echo 'Usage:'; echo '  secret-tool [OPTION…] attribute value ...'; exit 0\n")
        defer { fake.tmp.remove() }
        #expect(throws: SecretError.self) { try fake.store().store(Array("v".utf8), named: "a", shared: true) }
        #expect(throws: SecretError.self) { try fake.store().delete(named: "a") }
    }
}
