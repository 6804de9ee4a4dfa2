import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

/// `PathTrust`: a program nobody else could have put there, the whole path down to it.
@Suite struct PathTrustTests {
    /// A program in `tmp/a/b/` (folders 0755, the program 0755).
    func program(_ tmp: TemporaryFolder) throws -> String {
        try FileManager.default.createDirectory(atPath: tmp.path + "/a/b", withIntermediateDirectories: true)
        for folder in [tmp.path, tmp.path + "/a", tmp.path + "/a/b"] { chmod(folder, 0o755) }
        let path = tmp.path + "/a/b/host"
        try FileSystem.writeAtomically(path, utf8: "#!/bin/sh\n", permissions: 0o755)
        return path
    }

    @Test func ownProgram_inOwnFolders_isTrusted_andAStickyFolderOnTheWayToo() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try program(tmp)
        #expect(PathTrust.refusal(path) == nil)
        // The temporary folder's parent is /tmp (1777 here): others may not rename what is not theirs.
        chmod(tmp.path + "/a", 0o1777)
        #expect(PathTrust.refusal(path) == nil)
        #expect(PathTrust.refusal(tmp.path + "/a")?.reason.contains("writable by every user") == true)
        #expect(PathTrust.refusal("relative/host") != nil)
    }

    /// Any folder on the way that others may write (not only the last), or the program itself.
    @Test func aFolderOrTheProgramOthersMayWrite_isRefused_withTheFix() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try program(tmp)
        // A group others belong to: nogroup (nobody's), which only root can give a file to.
        if Platform.effectiveUserID == 0 { chown(tmp.path + "/a/b", 0, 65534) }
        for (target, mode, says) in [
            (tmp.path + "/a", 0o777, "writable by every user"), (tmp.path + "/a/b", 0o775, "writable by its group"),
            (path, 0o757, "writable by every user"),
        ] where Platform.effectiveUserID == 0 || mode != 0o775 {
            chmod(target, mode_t(mode))
            let refusal = PathTrust.refusal(path)
            #expect(refusal?.path == target, "\(target)")
            #expect(refusal?.reason.contains(says) == true, "\(refusal.map(\.description) ?? "trusted")")
            #expect(refusal?.fix == "chmod go-w " + target.shellQuoted)
            chmod(target, 0o755)
        }
        #expect(PathTrust.refusal(path) == nil)
    }

    /// Another user's program or folder; a link of ours is judged by what it names too.
    @Test func anotherUsersFile_andALinkIntoAWritableFolder_areRefused() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = try program(tmp)
        let me = Platform.effectiveUserID
        if me == 0 {
            chown(path, 65534, 65534)
            #expect(PathTrust.refusal(path, userID: 0)?.reason.contains("belongs to another user") == true)
            chown(path, 0, 0)
        } else {
            #expect(PathTrust.refusal(path, userID: me + 1)?.reason.contains("belongs to another user") == true)
        }
        let open = tmp.path + "/open"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
        try FileSystem.writeAtomically(open + "/host", utf8: "#!/bin/sh\n", permissions: 0o755)
        chmod(open, 0o777)
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/a/b/link", withDestinationPath: open + "/host")
        #expect(PathTrust.refusal(tmp.path + "/a/b/link")?.path == open)
    }

    /// The fix is one shell word whatever the path holds (a quote, a space, `$(…)`).
    @Test func theFix_quotesThePath() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let odd = tmp.path + "/it's $(x) here"
        try FileManager.default.createDirectory(atPath: odd, withIntermediateDirectories: true)
        chmod(odd, 0o777)
        let fix = try #require(PathTrust.refusal(odd)?.fix)
        #expect(fix == "chmod go-w '" + tmp.path + "/it'\\''s $(x) here'")
    }

    /// Write access for the owner's private group (a umask of 002 on systems with a group per
    /// user: `~/.local/bin` 0775) is harmless; for a group with another member, or one the account
    /// files do not name, it is not.
    @Test func theOwnersPrivateGroup_mayWrite_aSharedGroupMayNot() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(
            tmp.path + "/passwd",
            utf8: "ann:x:1000:1000:Ann:/home/ann:/bin/sh\nbob:x:1001:1001::/home/bob:/bin/sh\n"
                + "eve:x:1002:1003::/home/eve:/bin/sh\ncarl:x:1004:1003::/home/carl:/bin/sh\n")
        try FileSystem.writeAtomically(
            tmp.path + "/group", utf8: "ann:x:1000:\nbob:x:1001:ann\nstaff:x:1003:\ndev:x:1005:ann,eve\n")
        let accounts = PathTrust.Accounts(passwd: tmp.path + "/passwd", group: tmp.path + "/group")
        #expect(accounts.isPrivateGroup(1000, of: 1000))
        #expect(!accounts.isPrivateGroup(1001, of: 1001), "ann is a member of bob's group")
        #expect(!accounts.isPrivateGroup(1003, of: 1002), "carl has it as primary group too")
        #expect(!accounts.isPrivateGroup(1005, of: 1000), "not ann's primary group, and eve is in it")
        #expect(!accounts.isPrivateGroup(2000, of: 1000), "unknown group")
        #expect(!accounts.isPrivateGroup(1000, of: 3000), "unknown user")
        var status = try #require(try FileSystem.status(tmp.path))
        (status.owner, status.group, status.permissions, status.kind) = (1000, 1000, 0o775, .directory)
        #expect(PathTrust.refusal(of: status, at: "/home/ann/.local/bin", userID: 1000, accounts: accounts) == nil)
        status.group = 1005
        #expect(
            PathTrust.refusal(of: status, at: "/home/ann/.local/bin", userID: 1000, accounts: accounts)?.reason
                == "is writable by its group (mode 775)")
        (status.group, status.permissions) = (1000, 0o777)
        #expect(PathTrust.refusal(of: status, at: "/home/ann/.local/bin", userID: 1000, accounts: accounts) != nil)
    }
}
