import BridgeSystem
import Foundation
import Testing

@testable import BrowserSupport

@Suite struct ShellQuotingTests {
    @Test func plainWords_stayAsTheyAre() {
        #expect("/home/ann/projects/read-later/bridge.json".shellQuoted == "/home/ann/projects/read-later/bridge.json")
        #expect("org.example.host_2".shellQuoted == "org.example.host_2")
    }

    @Test func everythingElse_isOneWordThatTheShellGivesBackUnchanged() throws {
        for text in ["", "a b", "it's", "'", "$(rm -rf ~)", "`x`", "a\nb", "tab\there", "~/x", "*", "é", "\\"] {
            let quoted = text.shellQuoted
            #expect(quoted.hasPrefix("'"), "\(quoted)")
            // The shell itself reads it back: one argument, byte for byte.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "printf '%s|%s' \(quoted) \"$#\"", "sh"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let out = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(String(decoding: out, as: UTF8.self) == text + "|0", "\(quoted)")
        }
    }
}
