import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BridgeGenerator

@Suite struct SourceTrustTests {
    func source() throws -> TemporaryFolder {
        let tmp = TemporaryFolder()
        try FileManager.default.createDirectory(atPath: tmp.path + "/extension", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: tmp.path + "/Sources/BridgeHost", withIntermediateDirectories: true)
        try FileSystem.writeAtomically(tmp.path + "/Package.swift", utf8: "x", permissions: 0o644)
        try FileSystem.writeAtomically(tmp.path + "/extension/manifest.json", utf8: "{}", permissions: 0o644)
        try FileSystem.writeAtomically(tmp.path + "/Sources/BridgeHost/A.swift", utf8: "x", permissions: 0o644)
        for folder in ["", "/extension", "/Sources", "/Sources/BridgeHost"] { chmod(tmp.path + folder, 0o755) }
        return tmp
    }

    @Test func ownFolder_isTrusted_andWriteAccessForOthersIsNot() throws {
        let tmp = try source()
        defer { tmp.remove() }
        let me = Platform.effectiveUserID
        #expect(SourceTrust.refusal(tmp.path, userID: me) == nil)
        chmod(tmp.path + "/extension", 0o775)
        if me == 0 {
            // A group others belong to (nogroup, nobody's); the owner's private group would be harmless.
            chown(tmp.path + "/extension", 0, 65534)
            #expect(SourceTrust.refusal(tmp.path, userID: me)?.contains("writable by its group") == true)
            chown(tmp.path + "/extension", 0, 0)
        }
        chmod(tmp.path + "/extension", 0o757)
        #expect(SourceTrust.refusal(tmp.path, userID: me)?.contains("writable by every user") == true)
        chmod(tmp.path + "/extension", 0o755)
        // Another user's files (as a user who is not their owner and not root sees them).
        if me == 0 {
            chown(tmp.path + "/Package.swift", 65534, 65534)
            #expect(SourceTrust.refusal(tmp.path, userID: 0)?.contains("belongs to another user") == true)
        } else {
            #expect(SourceTrust.refusal(tmp.path, userID: me + 1)?.contains("belongs to another user") == true)
        }
    }

    @Test func aLinkToAWritableFolder_isJudgedByWhatItNames() throws {
        let tmp = try source()
        defer { tmp.remove() }
        let elsewhere = TemporaryFolder()
        defer { elsewhere.remove() }
        try FileSystem.writeAtomically(elsewhere.path + "/manifest.json", utf8: "{}", permissions: 0o644)
        chmod(elsewhere.path, 0o777)
        try FileManager.default.removeItem(atPath: tmp.path + "/extension")
        try FileManager.default.createSymbolicLink(atPath: tmp.path + "/extension", withDestinationPath: elsewhere.path)
        #expect(SourceTrust.refusal(tmp.path)?.contains("writable by every user") == true)
    }

    /// Attacking the fix: a folder deep in the extension, writable by others, is what `new` copies too.
    @Test func aWritableFolderInsideTheExtension_isRefused() throws {
        let tmp = try source()
        defer { tmp.remove() }
        try FileManager.default.createDirectory(
            atPath: tmp.path + "/extension/background/deep", withIntermediateDirectories: true)
        try FileSystem.writeAtomically(tmp.path + "/extension/background/deep/a.js", utf8: "x", permissions: 0o644)
        chmod(tmp.path + "/extension/background", 0o755)
        chmod(tmp.path + "/extension/background/deep", 0o755)
        #expect(SourceTrust.refusal(tmp.path) == nil)
        chmod(tmp.path + "/extension/background/deep", 0o777)
        #expect(SourceTrust.refusal(tmp.path)?.contains("deep is writable by every user") == true)
        chmod(tmp.path + "/extension/background/deep", 0o755)
        chmod(tmp.path + "/extension/background/deep/a.js", 0o666)
        #expect(SourceTrust.refusal(tmp.path)?.contains("a.js is writable by every user") == true)
    }

    /// The libraries a project carries are built into its host: a file of `Sources/` others may
    /// write is refused as the extension's would be.
    @Test func aWritableFileAmongTheLibraries_isRefused() throws {
        let tmp = try source()
        defer { tmp.remove() }
        #expect(SourceTrust.refusal(tmp.path) == nil)
        chmod(tmp.path + "/Sources/BridgeHost/A.swift", 0o666)
        #expect(SourceTrust.refusal(tmp.path)?.contains("Sources/BridgeHost/A.swift is writable by every user") == true)
        chmod(tmp.path + "/Sources/BridgeHost/A.swift", 0o644)
        chmod(tmp.path + "/Sources", 0o757)
        #expect(SourceTrust.refusal(tmp.path)?.contains("Sources is writable by every user") == true)
    }

    /// The whole path (`PathTrust`): a folder on the way that others may write could have the
    /// source renamed away and another put in its place; a sticky one (`/tmp`) could not.
    @Test func aFolderOnTheWayOthersCanWrite_isRefused_unlessSticky() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let inner = try source()
        defer { inner.remove() }
        let outer = tmp.path + "/outer"
        try FileManager.default.createDirectory(atPath: outer, withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: inner.path, toPath: outer + "/src")
        chmod(outer, 0o777)
        #expect(SourceTrust.refusal(outer + "/src") == "\(outer) is writable by every user (mode 777)")
        chmod(outer, 0o1777)
        #expect(SourceTrust.refusal(outer + "/src") == nil)
        chmod(outer, 0o755)
        #expect(SourceTrust.refusal(outer + "/src") == nil)
    }
}
