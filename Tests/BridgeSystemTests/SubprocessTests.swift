import BridgeSystem
import Foundation
import TestSupport
import Testing

@Suite struct SubprocessTests {
    /// A program that is still open for writing somewhere (another thread's
    /// child, forked while the program was being written, holds it until it
    /// execs) cannot be started for a moment (`ETXTBSY`): the spawn tries
    /// again instead of reporting a failure.
    @Test func programBusyForAMoment_isStartedOnceItIsFree() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let tool = tmp.path + "/tool"
        try FileSystem.writeAtomically(tool, utf8: "#!/bin/sh\necho ran\n", permissions: 0o755)
        let writer = open(tool, O_WRONLY)
        try #require(writer >= 0)
        let closer = Thread {
            usleep(30_000)
            close(writer)
        }
        closer.start()
        let result = try Subprocess.run(
            tool, arguments: [], environment: [:], workingDirectory: nil, input: [], timeoutMilliseconds: 10_000)
        #expect(result.status == 0)
        #expect(result.stdout == Array("ran\n".utf8))
    }
}
