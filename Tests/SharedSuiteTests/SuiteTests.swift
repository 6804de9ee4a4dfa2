import BridgeJSON
import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import SharedSuite

func mode(_ path: String) -> mode_t {
    var info = stat()
    stat(path, &info)
    return info.st_mode & 0o777
}

func writeRaw(_ path: String, _ text: String) throws {
    try FileSystem.writeAtomically(path, Array(text.utf8))
}

@Suite struct SuiteTests {
    @Test func missingFile_readsAsEmptyDefaults() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let suite = Suite(container: GroupContainer(path: tmp.path + "/c"))
        #expect(try suite.snapshot().values.isEmpty)
    }

    @Test func update_writesVersionedFileWithPrivateModes() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path + "/c")
        let suite = Suite(container: container)
        try suite.update { $0["extensionEnabled"] = .bool(true) }
        let doc = try JSONParser.parse(FileSystem.readFile(container.suitePath))
        #expect(doc["formatVersion"] == 1)
        #expect(doc["values"] == ["extensionEnabled": true])
        #expect(mode(container.path) == 0o700)
        #expect(mode(container.suitePath) == 0o600)
    }

    @Test func snapshot_unchangedFile_isServedFromCache_changedFileIsReread() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path)
        let writer = Suite(container: container)
        let reader = Suite(container: container)
        try writer.update { $0["k"] = .int(1) }
        let first = try reader.snapshot()
        #expect(first.int("k") == 1)
        #expect(try reader.snapshot().version == first.version)
        try writer.update { $0["k"] = .int(2) }
        #expect(try reader.snapshot().int("k") == 2)
    }

    /// The reader keeps the file it read open and `fstat`s it instead of the
    /// path; every way the suite can change must still be seen.
    @Test func heldFile_seesRenameOverUnlinkAndInPlaceRewriteAtOnce() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path)
        let reader = Suite(container: container)
        try writeRaw(container.suitePath, #"{"formatVersion":1,"values":{"k":1}}"#)
        #expect(try reader.snapshot().int("k") == 1)
        // A writer's atomic replacement: the held file loses its name.
        try writeRaw(container.suitePath, #"{"formatVersion":1,"values":{"k":2}}"#)
        #expect(try reader.snapshot().int("k") == 2)
        // Rewritten in place, same inode, another size.
        let fd = open(container.suitePath, O_WRONLY | O_TRUNC)
        let text = Array(#"{"formatVersion":1,"values":{"k":33}}"#.utf8)
        #expect(write(fd, text, text.count) == text.count)
        close(fd)
        #expect(try reader.snapshot().int("k") == 33)
        // Deleted: defaults at once.
        #expect(unlink(container.suitePath) == 0)
        #expect(try reader.snapshot().values.isEmpty)
    }

    /// A reader holds at most the current file and one replaced one (closed
    /// by `releaseStaleFile`, after a reply): no descriptor leaks however
    /// often the suite changes.
    @Test func heldFiles_areBounded_andReleased() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path)
        let reader = Suite(container: container)
        // This test's own files only: other tests run at the same time.
        func openFiles() -> Int {
            let fds = (try? FileSystem.listDirectory("/proc/self/fd")) ?? []
            return fds.filter { fd in
                var target = [CChar](repeating: 0, count: 4096)
                let n = readlink("/proc/self/fd/" + fd, &target, 4095)
                return n > 0
                    && String(decoding: target[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self).hasPrefix(tmp.path)
            }.count
        }
        try writeRaw(container.suitePath, #"{"formatVersion":1,"values":{"k":0}}"#)
        _ = try reader.snapshot()
        let before = openFiles()
        for i in 1...50 {
            try writeRaw(container.suitePath, #"{"formatVersion":1,"values":{"k":\#(i)}}"#)
            #expect(try reader.snapshot().int("k") == i)
        }
        #expect(before == 1)
        #expect(openFiles() == 2)  // the current file and one replaced one
        reader.releaseStaleFile()
        #expect(openFiles() == 1)
    }

    @Test func heldFile_folderSwappedUnderIt_isSeenWithinThePathCheckInterval() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path + "/c")
        try FileSystem.makeDirectories(container.path)
        let reader = Suite(container: container)
        try writeRaw(container.suitePath, #"{"formatVersion":1,"values":{"k":1}}"#)
        #expect(try reader.snapshot().int("k") == 1)
        // The old file keeps its name (in the moved folder) and its times.
        #expect(rename(container.path, tmp.path + "/old") == 0)
        try FileSystem.makeDirectories(container.path)
        try writeRaw(container.suitePath, #"{"formatVersion":1,"values":{"k":2}}"#)
        usleep(useconds_t(Suite.pathCheckInterval + 50) * 1000)
        #expect(try reader.snapshot().int("k") == 2)
    }

    @Test(arguments: [
        ("", "empty"), ("{", "not JSON"), ("[]", "top level"), ("{\"values\":{}}", "formatVersion is missing"),
        ("{\"formatVersion\":\"1\",\"values\":{}}", "not a positive integer"),
        ("{\"formatVersion\":1,\"values\":[]}", "values is a array"),
        ("{\"formatVersion\":1,\"values\":{\"k\":null}}", "wrong type at k"),
    ])
    func corruptFile_isNamedAndNeverOverwritten(content: String, reason: String) throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path)
        try writeRaw(container.suitePath, content)
        let suite = Suite(container: container)
        #expect {
            try suite.snapshot()
        } throws: { error in
            guard case .corrupt(let path, let why) = error as? SuiteError else { return false }
            return path == container.suitePath && why.contains(reason)
        }
        #expect(throws: SuiteError.self) { try suite.update { $0["x"] = .int(1) } }
        #expect(String(decoding: try FileSystem.readFile(container.suitePath), as: UTF8.self) == content)
    }

    @Test func newerFormat_isRefusedAndLeftAlone() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path)
        let text = "{\"formatVersion\":2,\"values\":{\"future\":1}}"
        try writeRaw(container.suitePath, text)
        let suite = Suite(container: container)
        #expect(throws: SuiteError.newerFormat(path: container.suitePath, version: 2, supported: 1)) {
            try suite.snapshot()
        }
        #expect(throws: SuiteError.self) { try suite.update { $0["x"] = .int(1) } }
        #expect(throws: SuiteError.newerFormat(path: container.suitePath, version: 2, supported: 1)) {
            try suite.repair()
        }
        #expect(String(decoding: try FileSystem.readFile(container.suitePath), as: UTF8.self) == text)
    }

    @Test func repair_movesCorruptFileAsideAndWritesWork() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path)
        try writeRaw(container.suitePath, "{broken")
        let suite = Suite(container: container)
        guard case .movedAside(let target, _, _, _) = try suite.repair(now: WallTime(seconds: 0)) else {
            Issue.record("expected the file to be moved aside")
            return
        }
        #expect(target == container.suitePath + ".corrupt-19700101T000000000Z")
        #expect(String(decoding: try FileSystem.readFile(target), as: UTF8.self) == "{broken")
        try suite.update { $0["k"] = .bool(true) }
        #expect(try suite.snapshot().bool("k") == true)
    }

    /// No write commits bytes the reader rejects (every host would then answer
    /// `suite_unreadable` until a repair); the suite is unchanged.
    @Test func write_thatWouldNotReadBack_isRefusedAndChangesNothing() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path)
        let suite = Suite(container: container)
        try suite.update { $0["keep"] = .string("yes") }
        let before = try FileSystem.readFile(container.suitePath)
        var deep = SuiteValue.array([])
        for _ in 0..<Suite.maximumValueDepth { deep = .array([deep]) }  // one level too deep
        #expect(throws: SuiteError.self) { try suite.update { $0["deep"] = deep } }
        #expect(throws: SuiteError.self) { try suite.replaceAll(["deep": deep]) }
        #expect(try FileSystem.readFile(container.suitePath) == before)
        #expect(try suite.snapshot().string("keep") == "yes")
        var fits = SuiteValue.array([])
        for _ in 0..<(Suite.maximumValueDepth - 1) { fits = .array([fits]) }
        try suite.update { $0["deep"] = fits }
        #expect(try Suite(container: container).snapshot()["deep"] == fits)
    }

    /// `repair` keeps every key that still reads and moves the whole file aside, so
    /// nothing a person wrote is deleted by the tool meant to rescue it.
    @Test func repair_keepsEveryKeyThatStillReads() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path)
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        let text = """
            {"formatVersion":1,"values":{"theme":"dark","n":3,"bad":{"$date":"10000-01-01T00:00:00Z"},"deep":\(deep),
            "when":{"$date":"2026-11-29T18:57:02.000Z"}}}
            """
        try writeRaw(container.suitePath, text)
        let suite = Suite(container: container)
        guard
            case .movedAside(let target, _, let kept, let setAside) = try suite.repair(now: WallTime(seconds: 0))
        else {
            Issue.record("expected the file to be moved aside")
            return
        }
        #expect(kept == ["n", "theme", "when"])
        #expect(setAside == ["bad", "deep"])
        #expect(String(decoding: try FileSystem.readFile(target), as: UTF8.self) == text)
        let snapshot = try suite.snapshot()
        #expect(snapshot.string("theme") == "dark")
        #expect(snapshot["when"] == WallTime(iso8601: "2026-11-29T18:57:02Z").map(SuiteValue.date))
        #expect(snapshot["bad"] == nil)
    }

    @Test func lock_heldByAnother_timesOutWithClearError() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = GroupContainer(path: tmp.path)
        try container.create()
        let fd = open(container.lockPath, O_RDWR | O_CREAT, 0o600)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX) == 0)
        let suite = Suite(container: container, lockTimeout: 0.05)
        #expect(throws: SuiteError.lockTimeout(path: container.lockPath, seconds: 0.05)) {
            try suite.update { $0["k"] = .int(1) }
        }
    }

    /// Found by FuzzSuiteFile: a `$date` with more than three fraction digits
    /// (`1969-12-31T23:59:59.9992Z`) decoded to 999,200,000 ns, but `iso8601`
    /// writes milliseconds, so the next read gave 999,000,000 ns: a suite changed
    /// by merely being rewritten. Dates now read at millisecond precision, as
    /// they are written (docs/SUITE.md: "Dates keep millisecond precision").
    @Test func subMillisecondDate_decodesToWhatIsWritten() throws {
        let input = #"""
            {"formatVersion":1,"values":{"a":{"$date":"2026-11-29"},"b":{"$date":"2026-11-29T18:57:02+01:30"},
            "c":{"$date":"1969-12-31T23:59:59.9992Z"},"d":{"$date":"2026-11-29T18:57:02.123456789Z"}}}
            """#
        let values = try Suite.decode(Array(input.utf8), path: "suite.json")
        #expect(values["c"] == .date(WallTime(seconds: -1, nanoseconds: 999_000_000)))
        #expect(values["d"] == .date(WallTime(seconds: 1_795_978_622, nanoseconds: 123_000_000)))
        let encoded = Suite.encode(values)
        #expect(try Suite.decode(encoded, path: "suite.json") == values)
    }
}
