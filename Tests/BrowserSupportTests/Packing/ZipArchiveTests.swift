import BridgeSystem
import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

@Suite struct ZipArchiveTests {
    let entries = [
        ZipArchive.Entry(path: "b.txt", bytes: Array("bee\n".utf8)),
        ZipArchive.Entry(path: "a/z.txt", bytes: Array("zed\n".utf8)),
        ZipArchive.Entry(path: "B.txt", bytes: Array("upper\n".utf8)),
        ZipArchive.Entry(path: "a.txt", bytes: []),
        ZipArchive.Entry(path: "a/y.bin", bytes: (0..<300).map { UInt8(truncatingIfNeeded: $0 * 31) }),
    ]

    @Test func make_sortsEntriesByTheirBytes() throws {
        let read = try ZipArchive.entries(in: ZipArchive.make(entries))
        // "B" (0x42) < "a" (0x61); "a.txt" < "a/…" because '.' (0x2E) < '/' (0x2F).
        #expect(read.map(\.path) == ["B.txt", "a.txt", "a/y.bin", "a/z.txt", "b.txt"])
        #expect(read.first { $0.path == "a/y.bin" }?.bytes == entries[4].bytes)
    }

    @Test func make_sameEntriesInAnyOrder_sameBytes() throws {
        let once = try ZipArchive.make(entries)
        #expect(try ZipArchive.make(entries.reversed()) == once)
        #expect(try ZipArchive.make(entries) == once)
    }

    @Test func make_fixedDateModeNoExtraFields() throws {
        let zip = try ZipArchive.make([ZipArchive.Entry(path: "x", bytes: Array("123456789".utf8))])
        // Local header: signature, version 10, flags 0, method 0 (stored), time 0, date 0x0021 (1980-01-01).
        #expect(Array(zip[0..<14]) == [0x50, 0x4B, 0x03, 0x04, 10, 0, 0, 0, 0, 0, 0, 0, 0x21, 0])
        #expect(Array(zip[14..<18]) == [0x26, 0x39, 0xF4, 0xCB], "CRC-32 of 123456789, little-endian")
        #expect(Array(zip[26..<30]) == [1, 0, 0, 0], "name length 1, no extra field")
        // Central record right after the 30 + 1 + 9 bytes: made by Unix 2.0, mode 0100644, no extra.
        let central = 40
        #expect(Array(zip[central..<(central + 6)]) == [0x50, 0x4B, 0x01, 0x02, 20, 3])
        #expect(Array(zip[(central + 30)..<(central + 34)]) == [0, 0, 0, 0], "no extra field, no comment")
        #expect(Array(zip[(central + 38)..<(central + 42)]) == [0, 0, 0xA4, 0x81])
        #expect(zip.count == 40 + 46 + 1 + 22)
    }

    @Test func systemUnzip_readsItBackIntact() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let path = tmp.path + "/t.zip"
        try FileSystem.writeAtomically(path, try ZipArchive.make(entries))
        let test = try #require(try Packing.run("/usr/bin/unzip", ["-t", path]), "unzip is installed")
        #expect(test.status == 0, "\(String(decoding: test.stdout + test.stderr, as: UTF8.self))")
        #expect(String(decoding: test.stdout, as: UTF8.self).contains("No errors detected"))
        let listing = try #require(try Packing.run("/usr/bin/unzip", ["-Z", path]))
        let text = String(decoding: listing.stdout, as: UTF8.self)
        #expect(text.contains("number of entries: 5"))
        #expect(text.contains("-rw-r--r--  2.0 unx        4 b- stor 80-Jan-01 00:00 b.txt"), "\(text)")
        let content = try #require(try Packing.run("/usr/bin/unzip", ["-p", path, "a/y.bin"]))
        #expect(content.stdout == entries[4].bytes)
        if let python = try Packing.run("/usr/bin/python3", ["-m", "zipfile", "-t", path]) {
            #expect(python.status == 0, "\(String(decoding: python.stderr, as: UTF8.self))")
        }
    }

    @Test(arguments: [
        "", "/abs", "a//b", "../x", "a/../b", "./a", "a/.", "a\\b", "C:x", "a\u{1}b", "dot.", "space ", "a/",
        "caf\u{E9}", "q\"uote", "star*", String(repeating: "x", count: 1_025),
    ])
    func check_refusesUnsafeNames(name: String) {
        #expect(throws: PackError.self) { try ZipArchive.check(name) }
        #expect(throws: PackError.self) { try ZipArchive.make([ZipArchive.Entry(path: name, bytes: [])]) }
    }

    @Test func check_acceptsExtensionNames() throws {
        for name in ["manifest.json", "_locales/en/messages.json", "icons/icon-16.png", "a b/c~d+e@f.js", ".x/y"] {
            try ZipArchive.check(name)
        }
    }

    @Test func make_samePathTwice_isRefused() {
        #expect(throws: PackError.unsafeName(name: "a", reason: "it is there twice")) {
            try ZipArchive.make([ZipArchive.Entry(path: "a", bytes: [1]), ZipArchive.Entry(path: "a", bytes: [2])])
        }
    }

    @Test func entries_badCRC_isRefused() throws {
        var zip = try ZipArchive.make([ZipArchive.Entry(path: "x", bytes: Array("123456789".utf8))])
        zip[31] ^= 1  // a content byte
        #expect(throws: PackError.corruptArchive("x: CRC-32 mismatch")) { try ZipArchive.entries(in: zip) }
    }
}
