import BridgeJSON
import Foundation
import TestSupport
import Testing

/// The container is not trusted. Links in it are never followed, a
/// FIFO never hangs anything, and every command finishes with a clear error.
/// Real binaries on the real file system, each run under `timeout 20` so a
/// hang fails the test (exit 124) instead of stalling the suite.
@Suite struct ContainerTrustTests {
    static let origin = "chrome-extension://testext/"

    struct Fixture {
        let tmp = TemporaryFolder()
        var container: String { tmp.path + "/c" }
        var environment: [String: String] {
            [
                "EXTENSION_BRIDGE_CONTAINER": container, "EXTENSION_BRIDGE_ALLOWED_CALLERS": ContainerTrustTests.origin,
                "HOME": tmp.path, "PATH": "/usr/bin:/bin",
            ]
        }

        init() throws {
            try FileManager.default.createDirectory(atPath: tmp.path + "/c/queue", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: tmp.path + "/outside", withIntermediateDirectories: true)
            try Data("Xsecret-outside".utf8).write(to: URL(fileURLWithPath: tmp.path + "/outside/secret"))
            let item =
                #"{"formatVersion":1,"id":"1-0-0","url":"https://o/","content":"c","savedAt":"2026-01-01T00:00:00Z"}"#
            try Data(item.utf8).write(to: URL(fileURLWithPath: tmp.path + "/outside/1-0000000000000000-00000000.json"))
        }

        func cli(_ arguments: String...) throws -> Finished {
            try runProcess("/usr/bin/timeout", ["20", Binaries.cli] + arguments, environment: environment)
        }

        func host(_ request: JSONValue) throws -> (Finished, JSONValue?) {
            let run = try runProcess(
                "/usr/bin/timeout", ["20", Binaries.host, ContainerTrustTests.origin], environment: environment,
                input: frameBytes(request))
            return (run, try splitFrames(run.stdout).first)
        }
    }

    @Test func linkedSuiteFile_isRefused_andLeaksNothing() throws {
        let f = try Fixture()
        defer { f.tmp.remove() }
        #expect(symlink(f.tmp.path + "/outside/secret", f.container + "/suite.json") == 0)
        let read = try f.cli("read")
        #expect(read.status != 0 && read.status != 124)
        #expect(read.stderr.contains("symbolic link"))
        #expect(!read.stderr.contains("secret-outside") && !read.stderr.contains("'X'"))
        #expect(try f.cli("write", "k", "v").status != 0)
        #expect(try String(contentsOfFile: f.tmp.path + "/outside/secret", encoding: .utf8) == "Xsecret-outside")
        let (run, reply) = try f.host(["action": "getSettings"])
        #expect(run.status == 0)
        #expect(reply?["status"] == "error")
        #expect(!String(decoding: run.stdout, as: UTF8.self).contains("secret-outside"))
    }

    @Test func linkedQueueFolder_isNeitherListedNorDrained() throws {
        let f = try Fixture()
        defer { f.tmp.remove() }
        try FileManager.default.removeItem(atPath: f.container + "/queue")
        #expect(symlink(f.tmp.path + "/outside", f.container + "/queue") == 0)
        for verb in ["list", "drain", "count"] {
            let run = try f.cli("queue", verb)
            #expect(run.status != 0 && run.status != 124)
            #expect(run.stderr.contains("symbolic link"))
        }
        #expect(FileManager.default.fileExists(atPath: f.tmp.path + "/outside/1-0000000000000000-00000000.json"))
        let (_, reply) = try f.host(["action": "saveContent", "url": "https://a/", "content": "x"])
        #expect(reply?["status"] == "error")
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.tmp.path + "/outside").count == 2)
    }

    @Test func linkedItemOrContentFile_isReportedUnreadable_neverRead() throws {
        let f = try Fixture()
        defer { f.tmp.remove() }
        #expect(
            symlink(
                f.tmp.path + "/outside/1-0000000000000000-00000000.json",
                f.container + "/queue/2-0000000000000000-00000000.json") == 0)
        let list = try f.cli("queue", "list")
        #expect(list.status == 0)
        #expect(String(decoding: list.stdout, as: UTF8.self).contains("unreadable"))
        let drain = try f.cli("queue", "drain")
        #expect(drain.status == 0 && drain.stdout.isEmpty)
        #expect(FileManager.default.fileExists(atPath: f.tmp.path + "/outside/1-0000000000000000-00000000.json"))
    }

    @Test func fifos_inTheContainer_neverHang() throws {
        let f = try Fixture()
        defer { f.tmp.remove() }
        #expect(mkfifo(f.container + "/suite.json", 0o600) == 0)
        #expect(mkfifo(f.container + "/queue/3-0000000000000000-00000000.json", 0o600) == 0)
        let read = try f.cli("read")
        #expect(read.status != 0 && read.status != 124)
        #expect(read.stderr.contains("not a regular file"))
        let (run, reply) = try f.host(["action": "getSettings"])
        #expect(run.status == 0 && reply?["status"] == "error")
        let list = try f.cli("queue", "list")
        #expect(list.status == 0 && String(decoding: list.stdout, as: UTF8.self).contains("unreadable"))
        #expect(try f.cli("queue", "drain").status == 0)
        try FileManager.default.createDirectory(atPath: f.container + "/files", withIntermediateDirectories: true)
        #expect(mkfifo(f.container + "/files/pipe", 0o600) == 0)
        let files = try f.cli("files", "read", "pipe")
        #expect(files.status != 0 && files.status != 124)
    }
}

/// A file-size limit or a full disk gets an error reply, and what
/// a crashed writer left behind is swept and counted.
@Suite struct ResourceLimitTests {
    @Test(.disabled(if: Binaries.isThreadSanitized, "TSan's runtime dies of SIGBUS under ulimit -f before main"))
    func fileSizeLimit_givesAnErrorReply_leavesNoTemporary_andServingContinues() throws {
        let f = try ContainerTrustTests.Fixture()
        defer { f.tmp.remove() }
        let big = String(repeating: "x", count: 300_000)
        let input =
            frameBytes(["action": "saveContent", "url": "https://a/", "content": .string(big)])
            + frameBytes(["action": "saveContent", "url": "https://a/", "content": "small"])
        let run = try runProcess(
            "/bin/bash", ["-c", "ulimit -f 100; exec \(Binaries.host) \(ContainerTrustTests.origin)"],
            environment: f.environment, input: input)
        let replies = try splitFrames(run.stdout)
        #expect(run.status == 0)
        #expect(replies.count == 2)
        #expect(replies.first?["status"] == "error")
        #expect(replies.first?["message"]?.stringValue?.contains("File too large") == true)
        #expect(replies.last?["status"] == "success")
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: f.container).filter {
            $0.contains(".tmp-")
        }
        #expect(leftovers.isEmpty)
        let cli = try runProcess(
            "/bin/bash", ["-c", "ulimit -f 100; exec \(Binaries.cli) import -"], environment: f.environment,
            input: JSONWriter.bytes(["k": .string(big)]))
        #expect(cli.status == 74)
        #expect(cli.stderr.contains("File too large"))
        #expect(!FileManager.default.fileExists(atPath: f.container + "/suite.json"))
    }

    @Test func staleTemporaries_areSwept_andLiveOnesCount() throws {
        let f = try ContainerTrustTests.Fixture()
        defer { f.tmp.remove() }
        let fm = FileManager.default
        try fm.createDirectory(atPath: f.container + "/queue/.incoming", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: f.container + "/files", withIntermediateDirectories: true)
        let stale = [
            f.container + "/queue/.incoming/5-0000000000000000-00000000.json", f.container + "/files/.a.tmp-1",
        ]
        let live = f.container + "/files/.b.tmp-2"
        for path in stale + [live] { try Data(repeating: 0x61, count: 4000).write(to: URL(fileURLWithPath: path)) }
        for path in stale {
            try fm.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path)
        }
        var env = f.environment
        env["EXTENSION_BRIDGE_QUEUE_MAX_BYTES"] = "4005"
        let run = try runProcess(
            Binaries.host, [ContainerTrustTests.origin], environment: env,
            input: frameBytes(["action": "saveContent", "url": "https://a/", "content": "0123456789"]))
        let reply = try splitFrames(run.stdout).first
        #expect(reply?["code"] == "queue_full")  // the live temporary's 4,000 bytes count
        for path in stale { #expect(!fm.fileExists(atPath: path)) }
        #expect(fm.fileExists(atPath: live))
    }
}

/// An inbound frame of any shape costs at most 3× its size in peak
/// memory (the host's whole peak RSS, start-up included, from
/// `getrusage(RUSAGE_CHILDREN)` in a Python parent).
@Suite struct InboundMemoryTests {
    static let size = 24 << 20

    /// Peak RSS in bytes of the host answering `body` (one frame), and its reply.
    func peak(_ body: [UInt8]) throws -> (Int, JSONValue?) {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let input = tmp.path + "/frame"
        try Data(frameBytes(body)).write(to: URL(fileURLWithPath: input))
        let script = """
            import resource, subprocess, sys
            with open(sys.argv[2], 'rb') as f:
                out = subprocess.run([sys.argv[1], 'chrome-extension://testext/'], stdin=f, capture_output=True).stdout
            sys.stdout.buffer.write(out)
            sys.stderr.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024))
            """
        let run = try runProcess(
            "/usr/bin/python3", ["-c", script, Binaries.host, input],
            environment: [
                "EXTENSION_BRIDGE_CONTAINER": tmp.path + "/c",
                "EXTENSION_BRIDGE_ALLOWED_CALLERS": "chrome-extension://testext/", "HOME": tmp.path,
            ])
        return (
            Int(run.stderr.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .max, try splitFrames(run.stdout).first
        )
    }

    /// `[0,0,…]` of `bytes` bytes.
    func zeros(_ bytes: Int) -> [UInt8] {
        [UInt8(ascii: "[")] + Array(repeating: Array("0,".utf8), count: bytes / 2 - 1).flatMap { $0 } + [
            UInt8(ascii: "0"), UInt8(ascii: "]"),
        ]
    }

    @Test func anyShape_peaksWithinThreeTimesItsSize() throws {
        let n = InboundMemoryTests.size
        let arrayMember = Array(#"{"action":"getSettings","x":"#.utf8) + zeros(n - 40) + [UInt8(ascii: "}")]
        let arrayID = Array(#"{"action":"getSettings","id":"#.utf8) + zeros(n - 40) + [UInt8(ascii: "}")]
        let content =
            Array(#"{"action":"saveContent","url":"https://a/","content":""#.utf8)
            + Array(repeating: UInt8(ascii: "x"), count: n - 80) + Array(#""}"#.utf8)
        let cases: [(String, [UInt8], String)] = [
            ("top-level array", zeros(n), "not_an_object"), ("array member", arrayMember, "success"),
            ("array id", arrayID, "invalid_request"), ("64 MiB-style content", content, "success"),
        ]
        // Sanitizers add shadow memory and redzones: the shape is checked there, the ratio here only.
        let sanitized = Binaries.isSanitized
        for (name, body, expected) in cases {
            let (bytes, reply) = try peak(body)
            #expect(reply?["status"] == .string(expected) || reply?["code"] == .string(expected), "\(name)")
            if !sanitized { #expect(bytes <= 3 * body.count, "\(name): peak \(bytes) bytes for \(body.count)") }
        }
    }
}
