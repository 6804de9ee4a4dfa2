import Foundation
import TestSupport
import Testing

/// An endless standard input (`yes |`) given to a verb that reads one input ends with a clear
/// refusal once it passes the CLI's input limit, not with a crash after taking the machine's
/// memory; the suite keeps what it had. Each run is held to 2 GB of address space, which an
/// unbounded read of `yes` passes within seconds.
@Suite struct EndlessInputTests {
    @Test(arguments: [["write", "note", "--from", "-"], ["import", "-"], ["files", "write", "big"]])
    func endlessStandardInput_isRefused_andTheSuiteKeepsItsValue(_ arguments: [String]) throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = ["EXTENSION_BRIDGE_CONTAINER": tmp.path + "/c", "HOME": tmp.path, "PATH": "/usr/bin:/bin"]
        #expect(try runProcess(Binaries.cli, ["write", "note", "kept"], environment: env).status == 0)
        let run = try runProcess(
            "/bin/sh", ["-c", #"ulimit -v 2000000; yes | exec "$0" "$@""#, Binaries.cli] + arguments,
            environment: env)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("standard input is over 256 MiB, the most extension-bridge reads as one input"))
        let read = try runProcess(Binaries.cli, ["read", "note"], environment: env)
        #expect(read.outText == "kept\n")
    }
}
