import BridgeSystem
import Foundation
import TestSupport
import Testing

@Suite struct SubprocessTests {
    /// A program that is still open for writing somewhere (another thread's
    /// child, forked while the program was being written, holds it until it
    /// execs) cannot be started for a moment (`ETXTBSY`): the spawn tries
    /// again instead of reporting a failure, for long enough that a loaded
    /// machine's slow child (here: a third of a second) does not fail it.
    @Test func programBusyForAMoment_isStartedOnceItIsFree() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let tool = tmp.path + "/tool"
        try FileSystem.writeAtomically(tool, utf8: "#!/bin/sh\necho ran\n", permissions: 0o755)
        let writer = open(tool, O_WRONLY | O_CLOEXEC)  // not inherited by the other tests' children
        try #require(writer >= 0)
        let closer = Thread {
            usleep(300_000)
            close(writer)
        }
        closer.start()
        let result = try Subprocess.run(
            tool, arguments: [], environment: [:], workingDirectory: nil, input: [], timeoutMilliseconds: 10_000)
        #expect(result.status == 0)
        #expect(result.stdout == Array("ran\n".utf8))
    }

    func sh(
        _ script: String, input: [UInt8] = [], timeout: Int64 = 10_000, environment: [String: String]? = [:],
        workingDirectory: String? = nil, ownProcessGroup: Bool = false,
        forward: ((Bool, ArraySlice<UInt8>) -> Void)? = nil
    ) throws -> Subprocess.Result {
        try Subprocess.run(
            "/bin/sh", arguments: ["-c", script], environment: environment, workingDirectory: workingDirectory,
            input: input, timeoutMilliseconds: timeout, ownProcessGroup: ownProcessGroup, forward: forward)
    }

    @Test func outputStatusAndSignal_areReportedApart() throws {
        let result = try sh("printf out; printf err >&2; exit 3")
        #expect(result.status == 3 && !result.timedOut)
        #expect(result.stdout == Array("out".utf8) && result.stderr == Array("err".utf8))
        #expect(try sh("kill -KILL $$").status == 128 + SIGKILL)
    }

    /// Input is written as the program reads it: more than a pipe holds reaches a reader whole,
    /// and a program that never reads cannot block the caller.
    @Test func input_largerThanAPipe_reachesAReader_andANonReaderDoesNotBlock() throws {
        let input = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let copied = try sh("cat", input: input)
        #expect(copied.stdout == input && copied.status == 0)
        let ignored = try sh("exit 0", input: input, timeout: 5_000)
        #expect(ignored.status == 0 && !ignored.timedOut)
    }

    /// A program that outlives its time is killed and says so; with its own process group its
    /// children go too, so nothing it started keeps running. (A termination request of this
    /// process, which earlier tests may have made, sends the group SIGTERM at once: blocked here,
    /// and so in the children, the shell lives to start its child and the timeout decides.)
    @Test func timeout_killsTheProgram_andWithAGroupItsChildren() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let slow = try sh("sleep 30", timeout: 100)
        #expect(slow.timedOut && slow.status == 128 + SIGKILL)
        var terminate = sigset_t()
        var previous = sigset_t()
        sigemptyset(&terminate)
        sigaddset(&terminate, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &terminate, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let group = try sh("sleep 30 & echo $! > '\(tmp.path)/child'; wait", timeout: 500, ownProcessGroup: true)
        #expect(group.timedOut)
        let written = String(decoding: try FileSystem.readFile(tmp.path + "/child"), as: UTF8.self)
        let child = try #require(Int32(written.trimmingCharacters(in: .whitespacesAndNewlines)))
        var gone = false
        for _ in 0..<200 where !gone {
            gone = kill(child, 0) != 0
            if !gone { usleep(10_000) }
        }
        #expect(gone, "the group's child outlived the timeout")
    }

    @Test func environmentAndWorkingDirectory_areTheOnesGiven_andOursIsKept() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let before = FileSystem.currentDirectory()
        let result = try sh("printf '%s|%s' \"$A\" \"$(pwd)\"", environment: ["A": "1"], workingDirectory: tmp.path)
        let resolved = try #require(FileSystem.resolvedPath(tmp.path))
        #expect(String(decoding: result.stdout, as: UTF8.self) == "1|" + resolved)
        #expect(FileSystem.currentDirectory() == before)
        #expect(throws: SystemError.self) { try sh("true", workingDirectory: tmp.path + "/missing") }
        #expect(FileSystem.currentDirectory() == before)
    }

    @Test func forward_passesOutputOnAsItArrives_insteadOfCollecting() throws {
        var seen: [(Bool, [UInt8])] = []
        let result = try sh("printf a; printf b >&2", forward: { seen.append(($0, Array($1))) })
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
        #expect(seen.filter { !$0.0 }.flatMap(\.1) == Array("a".utf8))
        #expect(seen.filter { $0.0 }.flatMap(\.1) == Array("b".utf8))
    }

    @Test func aMissingProgram_throws() {
        #expect(throws: SystemError.self) {
            try Subprocess.run(
                "/nonexistent/tool", arguments: [], environment: nil, workingDirectory: nil, input: [],
                timeoutMilliseconds: 1_000)
        }
    }
}
