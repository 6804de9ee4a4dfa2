import BridgeSystem
import Foundation
import Testing

@testable import BridgeCLI

/// A group container another user could change is refused (77), naming the folder and the fix:
/// one another user owns, or one with a folder on its way others may write (not sticky), as
/// written or through a link. Real folders; the tests run as root, so "another user" is nobody.
@Suite struct ContainerOwnerTests {
    static let nobody: UInt32 = 65534

    /// Under HOME: `~/.local/share` writable by every user refuses the first write (nothing made).
    @Test(arguments: [["write", "k", "v"], ["read"], ["where"], ["queue", "count"]])
    func sharedParentOfTheHomeContainer_isRefused(arguments: [String]) {
        let h = Harness()
        h.environment = ["HOME": h.tmp.path, "PATH": "/usr/bin:/bin"]
        defer { h.tmp.remove() }
        #expect(FileSystemTestSupport.makeFolder(h.tmp.path + "/.local/share", mode: 0o777))
        #expect(h.run(arguments) == 77)
        let message = h.err.joined(separator: "\n")
        #expect(message.contains(h.tmp.path + "/.local/share is writable by every user (mode 777)"))
        #expect(message.contains("(owner uid 0)") && message.contains("run chmod go-w \(h.tmp.path)/.local/share"))
        #expect(!FileManager.default.fileExists(atPath: h.tmp.path + "/.local/share/group.org.extensionbridge.shared"))
        // The fix the message gives works.
        #expect(chmod(h.tmp.path + "/.local/share", 0o755) == 0)
        #expect(h.run("write", "k", "v") == 0)
    }

    /// A container another user owns is refused, even in a folder of the user's own.
    @Test func containerOwnedByAnotherUser_isRefused() {
        let h = Harness()
        defer { h.tmp.remove() }
        #expect(h.run("write", "k", "v") == 0)
        #expect(chown(h.tmp.path + "/c", Self.nobody, Self.nobody) == 0)
        #expect(h.run("read", "k") == 77)
        #expect(h.err.joined().contains("\(h.tmp.path)/c belongs to another user (uid 65534)"))
        #expect(h.err.joined().contains("(uid 65534) (mode 700)"))
        #expect(h.run("queue", "count") == 77)
    }

    /// `EXTENSION_BRIDGE_CONTAINER` in a folder every user may write, directly or through a link to it,
    /// is refused; a sticky one (`/tmp`'s kind) is not.
    @Test func overrideInASharedFolder_isRefused_unlessSticky() {
        let h = Harness()
        defer { h.tmp.remove() }
        #expect(FileSystemTestSupport.makeFolder(h.tmp.path + "/ww", mode: 0o777))
        h.environment["EXTENSION_BRIDGE_CONTAINER"] = h.tmp.path + "/ww/c"
        #expect(h.run("write", "k", "v") == 77)
        #expect(h.err.joined().contains("\(h.tmp.path)/ww is writable by every user"))
        #expect(symlink(h.tmp.path + "/ww", h.tmp.path + "/link") == 0)
        h.environment["EXTENSION_BRIDGE_CONTAINER"] = h.tmp.path + "/link/c"
        #expect(h.run("write", "k", "v") == 77)
        #expect(chmod(h.tmp.path + "/ww", 0o1777) == 0)
        #expect(h.run("write", "k", "v") == 0)
        #expect(h.run("read", "k") == 0 && h.stdout == "v\n")
    }
}

/// Folders made with an exact mode (the umask does not apply to `chmod`).
enum FileSystemTestSupport {
    static func makeFolder(_ path: String, mode: mode_t) -> Bool {
        (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)) != nil
            && chmod(path, mode) == 0
    }
}
