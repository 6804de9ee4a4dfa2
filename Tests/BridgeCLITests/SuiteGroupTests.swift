import BridgeSystem
import SharedSuite
import Testing

@testable import BridgeCLI

/// Groups that do not exist, and the environment that names where groups are.
@Suite struct SuiteGroupTests {
    /// A harness whose groups live under HOME, as a user's do.
    func homeHarness() -> Harness {
        let h = Harness()
        h.environment = ["HOME": h.tmp.path, "PATH": "/usr/bin:/bin"]
        return h
    }

    /// `read` of a group nothing was written to says so (KEY: exit 66; the whole suite: its
    /// defaults, `{}`) and names the groups there are; a write that creates a group while others
    /// exist notes them (a mistyped --suite).
    @Test func missingGroup_readSaysSo_andAWriteCreatingOneNamesTheOthers() throws {
        let h = homeHarness()
        #expect(h.run("read", "--json") == 0 && h.stdout == "{}\n")
        #expect(h.err.first?.contains("note: the group group.org.extensionbridge.shared does not exist") == true)
        #expect(h.run("read", "k") == 66)
        #expect(h.err.first?.contains("the group group.org.extensionbridge.shared does not exist") == true)
        #expect(h.run("write", "k", "v") == 0 && h.err.isEmpty)
        #expect(h.run("read", "k") == 0 && h.stdout == "v\n")
        #expect(h.run("--suite", "group.org.extensionbridge.shard", "read", "k") == 66)
        #expect(h.err.first?.contains("groups that exist: group.org.extensionbridge.shared") == true)
        #expect(h.run("--suite", "group.org.extensionbridge.shard", "write", "k", "w") == 0)
        #expect(h.err.count == 1)
        #expect(h.err.first?.contains("note: created the new group group.org.extensionbridge.shard") == true)
        #expect(h.err.first?.contains("groups that exist: group.org.extensionbridge.shared") == true)
        #expect(h.run("--suite", "group.org.extensionbridge.shard", "write", "k", "x") == 0 && h.err.isEmpty)
    }

    /// `queue list|count|drain` and `files list` of a group that does not exist answer empty, as
    /// before, and say on stderr why and which groups exist (a mistyped --suite read as "nothing
    /// was saved"); of one that exists, nothing is noted.
    @Test func missingGroup_queueAndFilesSaySo_onStderr() {
        let h = homeHarness()
        #expect(h.run("write", "k", "v") == 0)
        for verb in [["queue", "list"], ["queue", "count"], ["queue", "drain"], ["files", "list"]] {
            #expect(h.run(["--suite", "group.org.extensionbridge.shard"] + verb) == 0, "\(verb)")
            let note = h.err.filter { $0.contains("note: the group group.org.extensionbridge.shard does not exist") }
            #expect(note.count == 1, "\(verb): \(h.err)")
            #expect(note.first?.contains("groups that exist: group.org.extensionbridge.shared") == true)
            #expect(h.run(verb) == 0 && !h.err.contains { $0.contains("does not exist") }, "\(verb): \(h.err)")
        }
        #expect(h.run("--suite", "group.org.extensionbridge.shard", "queue", "count") == 0 && h.stdout == "0\n")
    }

    /// The suite verbs refuse a relative HOME with the sentence install uses.
    @Test(arguments: [["write", "k", "v"], ["read"], ["where"], ["queue", "count"]])
    func relativeHome_isRefused_asInstallRefusesIt(arguments: [String]) {
        let h = Harness()
        h.environment = ["HOME": "relative/home"]
        #expect(h.run(arguments) == 74)
        #expect(h.err == ["extension-bridge: " + CLIError.relativeHome("relative/home").message])
        #expect(h.run("install", "--dry-run") == 74)
        #expect(h.err == ["extension-bridge: " + CLIError.relativeHome("relative/home").message])
    }

    /// EXTENSION_BRIDGE_CONTAINER under a folder that does not exist is a typo: refused, nothing made.
    @Test func containerWhoseParentIsMissing_isRefused_andNothingIsCreated() {
        let h = Harness()
        h.environment = ["EXTENSION_BRIDGE_CONTAINER": h.tmp.path + "/no/such/c", "HOME": h.tmp.path]
        #expect(h.run("write", "k", "v") == 66)
        #expect(h.err.first?.contains("its parent folder \(h.tmp.path)/no/such does not exist") == true)
        #expect((try? FileSystem.status(h.tmp.path + "/no")) == nil)
    }

    /// A relative EXTENSION_BRIDGE_CONTAINER names another folder in each process (the host runs
    /// where the browser does): refused, nothing made.
    @Test func relativeContainer_isRefused_andNothingIsCreated() {
        let h = Harness()
        h.environment = ["EXTENSION_BRIDGE_CONTAINER": "rel/g", "HOME": h.tmp.path]
        #expect(h.run("write", "k", "v") == 64)
        #expect(h.err.first?.contains("EXTENSION_BRIDGE_CONTAINER is rel/g, a relative path") == true, "\(h.err)")
        #expect((try? FileSystem.status("rel")) == nil)
    }
}
