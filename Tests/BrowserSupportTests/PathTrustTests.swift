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
        for (target, mode, says) in [
            (tmp.path + "/a", 0o777, "writable by every user"), (tmp.path + "/a/b", 0o775, "writable by its group"),
            (path, 0o757, "writable by every user"),
        ] {
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
}
