import BridgeProtocol
import Testing

@testable import BridgeCLI

@Suite struct BridgeCLIEntryTests {
    @Test func usage_errorsExit64_andHelpWorksForEveryVerb() {
        let h = Harness()
        #expect(h.run() == 64)
        #expect(h.run("frobnicate") == 64)
        #expect(h.run("queue") == 64)
        #expect(h.run("--suite", "../x", "read") == 64)
        #expect(h.run("doctor", "--system", "--user-data-dir", h.tmp.path) == 64)
        #expect(h.run("install", "--destdir", "relative", "--browser", "chromium", "--dry-run") == 64)
        // An unknown level is refused before anything is read (the host would log at warn).
        #expect(h.run("install", "--log-level", "verbose", "--extension-dir", h.tmp.path + "/none") == 64)
        #expect(h.err.first?.contains("--log-level takes error, warn, info, debug, not 'verbose'") == true)
        #expect(h.run("read", "--dry-run", "x") == 64)
        #expect(h.err.first?.contains("`read` does not take the option --dry-run") == true)
        for verb in [
            "read", "write", "delete", "export", "import", "enable", "disable", "repair", "queue", "files", "where",
            "install", "uninstall", "doctor", "help", "completions", "man",
        ] {
            #expect(h.run(verb, "--help") == 0)
            #expect(h.stdout.contains("extension-bridge \(verb)"))
        }
        #expect(h.run("--version") == 0 && h.stdout == "extension-bridge \(BridgeVersion.current)\n")
    }
}
