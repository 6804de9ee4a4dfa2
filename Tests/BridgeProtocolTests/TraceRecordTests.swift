import Testing

@testable import BridgeProtocol

@Suite struct TraceRecordTests {
    static func sample() -> TraceRecord {
        var record = TraceRecord(kind: .reply, processID: 4711, caller: "chrome-extension://abc/")
        record.action = "getPageState"
        record.id = "\"a\\tb\""
        record.status = "success"
        record.bytes = 312
        record.microseconds = 1850
        record.dropped = 2
        record.body = Array("{\"status\":\"success\"}\n\t\\ raw".utf8) + [0, 255]
        record.bodyTruncated = true
        return record
    }

    @Test func encodeThenDecode_givesTheSameRecord() throws {
        let record = Self.sample()
        let decoded = try #require(TraceRecord.decode(record.encoded()[...]))
        #expect(decoded == record)
    }

    @Test func fieldsWithTabsLineBreaksAndBackslashes_areEscapedInTheHeader() throws {
        var record = TraceRecord(kind: .log, processID: 1, caller: "a\tb\nc\\d")
        record.body = Array("warn: x".utf8)
        let bytes = record.encoded()
        let header = try #require(bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 1).first)
        #expect(String(decoding: header, as: UTF8.self).contains("a\\tb\\nc\\\\d"))
        #expect(TraceRecord.decode(bytes[...])?.caller == "a\tb\nc\\d")
    }

    @Test func aBodyOverTheLimit_isCutWhenEncoded() throws {
        var record = TraceRecord(kind: .request, processID: 1, caller: "x")
        record.body = [UInt8](repeating: UInt8(ascii: "a"), count: TraceRecord.maxBodyBytes + 10)
        let decoded = try #require(TraceRecord.decode(record.encoded()[...]))
        #expect(decoded.body.count == TraceRecord.maxBodyBytes)
    }

    @Test(arguments: [
        "",
        "EBT1\treply\t1\tc\ta\ti\ts\t1\t1\t0\t0",  // no line break
        "EBT2\treply\t1\tc\ta\ti\ts\t1\t1\t0\t0\n",  // another version
        "EBT1\treply\t1\tc\ta\ti\ts\t1\t1\t0\n",  // a field short
        "EBT1\tnews\t1\tc\ta\ti\ts\t1\t1\t0\t0\n",  // no such kind
        "EBT1\treply\tpid\tc\ta\ti\ts\t1\t1\t0\t0\n",  // not a number
        "EBT1\treply\t1\tc\\q\ta\ti\ts\t1\t1\t0\t0\n",  // an unknown escape
        "EBT1\treply\t1\tc\ta\ti\ts\t1\t1\t0\t2\n",  // truncated is 0 or 1
    ])
    func anythingElse_isNoRecord(text: String) {
        #expect(TraceRecord.decode(Array(text.utf8)[...]) == nil)
    }
}
