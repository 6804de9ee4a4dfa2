import TestSupport
import Testing

@testable import BridgeSystem

@Suite struct ChangeTokenTests {
    /// Watchers compare tokens to decide whether to read again: one version of a file gives equal
    /// tokens, and the next version (an atomic replace with the same bytes) another.
    @Test func fileTokens_equalForOneVersion_differForTheNext() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = tmp.path + "/suite.json"
        try FileSystem.writeAtomically(path, [1])
        let first = ChangeToken(try #require(try FileSystem.identity(path)))
        #expect(ChangeToken(try #require(try FileSystem.identity(path))) == first)
        try FileSystem.writeAtomically(path, [1])
        #expect(ChangeToken(try #require(try FileSystem.identity(path))) != first)
    }

    /// In-memory stores count their versions; a count never equals a file's token.
    @Test func counterTokens_compareByCount_andNeverEqualAFileToken() throws {
        #expect(ChangeToken(counter: 1) == ChangeToken(counter: 1))
        #expect(ChangeToken(counter: 1) != ChangeToken(counter: 2))
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        try FileSystem.writeAtomically(tmp.path + "/f", [])
        let file = ChangeToken(try #require(try FileSystem.identity(tmp.path + "/f")))
        #expect(!(0..<4).map { ChangeToken(counter: $0) }.contains(file))
    }
}
