import Foundation
import TestSupport
import Testing

/// A standard input over the CLI's input limit (one byte over 256 MiB: what an endless `yes |`
/// reaches first) given to a verb that reads one input ends with a clear refusal instead of
/// being read whole, so an endless one cannot take the machine's memory; the suite keeps what it
/// had. (A finite input, not `ulimit -v`: the sanitizers reserve terabytes of address space.)
@Suite struct EndlessInputTests {
    @Test(arguments: [["write", "note", "--from", "-"], ["import", "-"], ["files", "write", "big"]])
    func endlessStandardInput_isRefused_andTheSuiteKeepsItsValue(_ arguments: [String]) throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let env = ["EXTENSION_BRIDGE_CONTAINER": tmp.path + "/c", "HOME": tmp.path, "PATH": "/usr/bin:/bin"]
        #expect(try runProcess(Binaries.cli, ["write", "note", "kept"], environment: env).status == 0)
        let run = try runProcess(
            "/bin/sh", ["-c", #"head -c 268435457 /dev/zero | exec "$0" "$@""#, Binaries.cli] + arguments,
            environment: env)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr.contains("standard input is over 256 MiB, the most extension-bridge reads as one input"))
        let read = try runProcess(Binaries.cli, ["read", "note"], environment: env)
        #expect(read.outText == "kept\n")
    }
}
