import BridgeJSON
import Foundation
import TestSupport
import Testing

/// `secret set` typed at a real terminal (a pseudo-terminal from Python's
/// `pty`): what is typed is never shown, and Ctrl-C gives the terminal back
/// as it was. No Secret Service runs here, so a typed value ends in exit 69
/// after it was read; the stored path is `SecretsTests`' (a real keyring).
@Suite struct SecretPromptTests {
    /// Runs `secret set tok` on a pty, types `keys` once the terminal stops
    /// echoing, and reports what the terminal showed, the exit status, and
    /// whether echo is on again afterwards.
    func typed(_ keys: String) throws -> (shown: String, status: Int, echoAfter: Bool) {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let script = """
            import json, os, pty, select, sys, termios, time
            cli, keys = sys.argv[1], sys.argv[2].encode()
            env = {"PATH": "/usr/bin:/bin", "HOME": sys.argv[3], "EXTENSION_BRIDGE_CONTAINER": sys.argv[3] + "/c"}
            pid, fd = pty.fork()
            if pid == 0:
                os.execve(cli, [cli, "secret", "set", "tok"], env)
            shown = b""
            def read_for(seconds, until=None):
                global shown
                end = time.time() + seconds
                while time.time() < end and not (until and until()):
                    if select.select([fd], [], [], 0.05)[0]:
                        try:
                            chunk = os.read(fd, 4096)
                        except OSError:
                            return
                        if not chunk:
                            return
                        shown += chunk
            read_for(20, lambda: b"not shown" in shown and not termios.tcgetattr(fd)[3] & termios.ECHO)
            os.write(fd, keys)
            read_for(5)
            for _ in range(200):  # a CLI still waiting for the end of input is killed (status -9)
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    break
                time.sleep(0.05)
            else:
                os.kill(pid, 9)
                _, status = os.waitpid(pid, 0)
            try:
                echo = bool(termios.tcgetattr(fd)[3] & termios.ECHO)
            except termios.error:
                echo = None
            print(json.dumps({"shown": shown.decode(errors="replace"), "status": os.waitstatus_to_exitcode(status), "echo": echo}))
            """
        let run = try runProcess(
            "/usr/bin/python3", ["-c", script, Binaries.cli, keys, tmp.path], environment: ["PATH": "/usr/bin:/bin"])
        let result = try JSONParser.parse(run.stdout)
        return (
            result["shown"]?.stringValue ?? "", Int(result["status"]?.intValue ?? -1),
            result["echo"]?.boolValue ?? false
        )
    }

    @Test func typedValue_isNeverShown() throws {
        let (shown, status, echoAfter) = try typed("s3cret-value\n")
        #expect(shown.contains("Type the value of 'tok'"), "\(shown)")
        #expect(!shown.contains("s3cret"), "the terminal showed the value: \(shown)")
        #expect(status == 69, "read, then no Secret Service here: \(shown)")  // secrets_unavailable
        #expect(echoAfter)
    }

    @Test func ctrlC_cancels_andGivesTheTerminalBack() throws {
        let (shown, status, echoAfter) = try typed("half\u{03}")
        #expect(status == 130, "\(shown)")
        #expect(shown.contains("cancelled: nothing was stored"), "\(shown)")
        #expect(!shown.contains("half"))
        #expect(echoAfter, "echo is on again")
    }
}
