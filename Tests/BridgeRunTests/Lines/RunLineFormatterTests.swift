import BridgeProtocol
import BridgeSystem
import Testing

@testable import BridgeRun

@Suite struct RunLineFormatterTests {
    let time = WallTime(seconds: 1_800_000_000, nanoseconds: 512_000_000)
    var stamp: String { time.localTimeOfDay }
    let caller = "chrome-extension://honlgoealnaplikdeeidpcknncfcnfmo/"

    func record(_ kind: TraceRecord.Kind) -> TraceRecord {
        var record = TraceRecord(kind: kind, processID: 4711, caller: caller)
        record.action = "getPageState"
        record.id = "3"
        record.bytes = 57
        return record
    }

    @Test func aRequest_isTimeArrowCallerActionIdAndBytes() {
        let lines = RunLineFormatter(verbose: false).lines(.host(record(.request)), at: time)
        #expect(lines == ["\(stamp) → \(caller) getPageState #3 57 B"])
    }

    @Test func aReply_addsItsStatusAndMilliseconds() {
        var reply = record(.reply)
        reply.status = "success"
        reply.bytes = 312
        reply.microseconds = 1_850
        #expect(
            RunLineFormatter(verbose: false).lines(.host(reply), at: time) == [
                "\(stamp) ← \(caller) getPageState #3 success 312 B 1.9 ms"
            ])
        reply.status = ""
        reply.id = ""
        reply.action = "request:enabled_status"
        #expect(
            RunLineFormatter(verbose: false).lines(.host(reply), at: time) == [
                "\(stamp) ← \(caller) request:enabled_status - 312 B 1.9 ms"
            ])
    }

    @Test func aPush_saysSo() {
        var push = record(.push)
        push.action = "settingsChanged"
        push.id = ""
        #expect(
            RunLineFormatter(verbose: false).lines(.host(push), at: time) == [
                "\(stamp) ← \(caller) settingsChanged (push) 57 B"
            ])
    }

    @Test func verbose_addsTheBody_andSaysWhenItWasCut() {
        var request = record(.request)
        request.body = Array("{\"action\":\"getPageState\"}".utf8)
        request.bytes = 40_000
        request.bodyTruncated = true
        let lines = RunLineFormatter(verbose: true).lines(.host(request), at: time)
        #expect(lines.count == 2)
        #expect(lines[1] == "    {\"action\":\"getPageState\"} … (first 25 of 40000 bytes)")
        #expect(RunLineFormatter(verbose: false).lines(.host(request), at: time).count == 1)
    }

    @Test func hostLogLines_andLostRecords_nameTheHostProcess() {
        var log = TraceRecord(kind: .log, processID: 4711, caller: caller)
        log.body = Array("warn: the suite file is not JSON".utf8)
        log.dropped = 3
        #expect(
            RunLineFormatter(verbose: false).lines(.host(log), at: time) == [
                "\(stamp) host[4711]: 3 earlier records were lost (run fell behind)",
                "\(stamp) host[4711] warn: the suite file is not JSON",
            ])
    }

    @Test func startAndEnd_areShownOnlyWhenVerbose() {
        var start = TraceRecord(kind: .start, processID: 9, caller: "a@b")
        start.status = "group.x"
        #expect(RunLineFormatter(verbose: false).lines(.host(start), at: time) == [])
        #expect(
            RunLineFormatter(verbose: true).lines(.host(start), at: time) == [
                "\(stamp) host[9] started for a@b, group group.x"
            ])
    }

    @Test func consoleLines_areTaggedWithWhereTheyRan_andOnlyErrorsUnlessVerbose() {
        let uncaught = ConsoleMessage(
            origin: .content(page: "http://127.0.0.1:8000/"), kind: .uncaught, text: "Error: boom",
            location: "content/content.js:12")
        #expect(
            RunLineFormatter(verbose: false).lines(.console(uncaught), at: time) == [
                "\(stamp) [content http://127.0.0.1:8000/] uncaught Error: boom (content/content.js:12)"
            ])
        let log = ConsoleMessage(origin: .background, kind: .log, text: "started")
        #expect(RunLineFormatter(verbose: false).lines(.console(log), at: time) == [])
        #expect(RunLineFormatter(verbose: true).lines(.console(log), at: time) == ["\(stamp) [background] log started"])
        #expect(RunLineFormatter.tag(.popup) == "[popup]")
        #expect(RunLineFormatter.tag(.page(path: "options/options.html")) == "[page options/options.html]")
    }

    @Test func runsOwnLines_sayWhoSpeaks() {
        let f = RunLineFormatter(verbose: false)
        #expect(f.lines(.status("the extension is loaded"), at: time) == ["\(stamp) run: the extension is loaded"])
        #expect(f.lines(.problem("x"), at: time) == ["\(stamp) run: problem: x"])
        #expect(f.lines(.build("error: y"), at: time) == ["\(stamp) build: error: y"])
    }

    @Test(arguments: [(0, "0.0 ms"), (49, "0.0 ms"), (50, "0.1 ms"), (1_850, "1.9 ms"), (12_345_678, "12345.7 ms")])
    func milliseconds_haveOneDecimal(microseconds: Int64, shown: String) {
        #expect(RunLineFormatter.milliseconds(microseconds) == shown)
    }
}
