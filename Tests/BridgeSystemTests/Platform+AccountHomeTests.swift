import Foundation
import Testing

@testable import BridgeSystem

@Suite struct PlatformAccountHomeTests {
    /// The password database's home, whatever `HOME` says: a sandboxed process's `HOME` is its own
    /// container (macOS), and the group container must not follow it there.
    @Test func accountHomeDirectory_isThePasswdEntry_notHOME() throws {
        let getent = Process()
        getent.executableURL = URL(fileURLWithPath: "/usr/bin/getent")
        getent.arguments = ["passwd", String(getuid())]
        let out = Pipe()
        getent.standardOutput = out
        try getent.run()
        let line = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        getent.waitUntilExit()
        let expected = line.split(separator: ":", omittingEmptySubsequences: false).dropFirst(5).first.map(String.init)
        let saved = ProcessInfo.processInfo.environment["HOME"]
        setenv("HOME", "/tmp/a-sandbox-container", 1)
        defer { if let saved { setenv("HOME", saved, 1) } else { unsetenv("HOME") } }
        #expect(Platform.accountHomeDirectory() == expected)
        #expect(Platform.accountHomeDirectory() != "/tmp/a-sandbox-container")
    }

    @Test func passwdHome_findsTheUid_refusesRelativeAndMissing() {
        let file = Array(
            "root:x:0:0:root:/root:/bin/bash\nodd:x:5:5::relative:/bin/sh\n\nbob:x:1000:1000:Bob,,,:/home/bob:/bin/sh\n"
                .utf8)
        #expect(Platform.passwdHome(of: 1000, in: file) == "/home/bob")
        #expect(Platform.passwdHome(of: 0, in: file) == "/root")
        #expect(Platform.passwdHome(of: 5, in: file) == nil)
        #expect(Platform.passwdHome(of: 42, in: file) == nil)
    }

    /// Linux keeps `HOME` (and XDG) for the container, as before; macOS never reads `HOME` for it.
    @Test func groupContainersHome_onLinuxIsHOME() {
        let env = Environment(["HOME": "/tmp/h"])
        if Platform.isMacOS {
            #expect(Platform.groupContainersHome(environment: env) == Platform.accountHomeDirectory())
        } else {
            #expect(Platform.groupContainersHome(environment: env) == "/tmp/h")
            #expect(Platform.groupContainersHome(environment: Environment([:])) == nil)
        }
    }
}
