import Foundation
import TestSupport
import Testing

@testable import BridgeSystem

@Suite struct PlatformTests {
    @Test func randomBytes_haveTheLengthAsked() {
        #expect(Platform.randomBytes(0).isEmpty)
        #expect(Platform.randomBytes(13).count == 13)
        #expect(Platform.randomBytes(32) != Platform.randomBytes(32))
    }

    /// `doctor` and `install` ask whether a browser or a host can be started: a regular file with
    /// the execute bit, through links; a folder (which has the bit too) or a plain file is not.
    @Test func isExecutableFile_onlyARegularFileThatMayRun() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/tool", utf8: "#!/bin/sh\n", permissions: 0o755)
        try FileSystem.writeAtomically(tmp.path + "/data", utf8: "x", permissions: 0o644)
        try FileSystem.makeDirectory(tmp.path + "/folder")
        #expect(symlink(tmp.path + "/tool", tmp.path + "/link") == 0)
        #expect(Platform.isExecutableFile(tmp.path + "/tool"))
        #expect(Platform.isExecutableFile(tmp.path + "/link"))
        #expect(!Platform.isExecutableFile(tmp.path + "/data"))
        #expect(!Platform.isExecutableFile(tmp.path + "/folder"))
        #expect(!Platform.isExecutableFile(tmp.path + "/missing"))
        #expect(Platform.exists(tmp.path + "/folder") && !Platform.exists(tmp.path + "/missing"))
    }

    /// XDG_DATA_HOME counts only when absolute, as the XDG specification says: a relative value
    /// would put the group container wherever the process happens to run.
    @Test func dataFolders_takeAnAbsoluteXDGDataHomeOnly() {
        guard !Platform.isMacOS else { return }
        #expect(Platform.groupContainersRoot(home: "/home/a", xdgDataHome: nil) == "/home/a/.local/share")
        #expect(Platform.groupContainersRoot(home: "/home/a", xdgDataHome: "/data") == "/data")
        #expect(Platform.groupContainersRoot(home: "/home/a", xdgDataHome: "data") == "/home/a/.local/share")
        let folder = { (xdg: String?) in
            Platform.applicationDataFolder(home: "/home/a", xdgDataHome: xdg, linuxName: "eb", macName: "EB")
        }
        #expect(folder(nil) == "/home/a/.local/share/eb")
        #expect(folder("/data") == "/data/eb")
        #expect(folder("rel") == "/home/a/.local/share/eb")
    }

    @Test func executablePath_isThisProcessWithLinksResolved() throws {
        let path = try #require(Platform.executablePath())
        #expect(path.hasPrefix("/"))
        #expect(path == (try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")))
    }

    @Test func processAndUser_areThisProcesss() {
        #expect(Platform.processID == getpid())
        #expect(Platform.effectiveUserID == geteuid())
    }

    /// Asking the kernel for the pages changes none of the bytes already written.
    @Test func prefault_keepsTheBytes() {
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        for i in stride(from: 0, to: bytes.count, by: 4096) { bytes[i] = UInt8(truncatingIfNeeded: i / 4096 + 1) }
        let before = bytes
        bytes.withUnsafeMutableBytes { raw in
            if let base = raw.baseAddress { Platform.prefault(base + 3, count: raw.count - 3) }
        }
        #expect(bytes == before)
    }

    @Test func sleep_waitsAtLeastTheTimeAsked() {
        let start = MonotonicClock.system.milliseconds
        Platform.sleep(milliseconds: 20)
        #expect(MonotonicClock.system.milliseconds - start >= 20)
    }
}
