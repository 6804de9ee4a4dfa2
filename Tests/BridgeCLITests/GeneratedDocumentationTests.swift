import BridgeProtocol
import BridgeSystem
import Foundation
import SharedSuite
import Testing

@testable import BridgeCLI

@Suite struct GeneratedDocumentationTests {
    let commands = BridgeCLI.commands

    @Test func helpPage_listsEveryDeclaredOption_forEveryCommand() {
        let h = Harness()
        for command in commands.flatMap(\.flattened) {
            #expect(h.run(command.path + ["--help"]) == 0, "\(command.name)")
            #expect(h.stdout.contains("Usage: extension-bridge \(command.name)"))
            for option in command.options {
                #expect(h.stdout.contains(option.synopsis), "\(command.name) \(option.name)")
            }
        }
        #expect(h.run("help", "queue", "drain") == 0 && h.stdout.contains("--all"))
        #expect(h.run("help", "nope") == 64)
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completions_nameEveryCommandAndOption(shell: String) {
        let h = Harness()
        #expect(h.run("completions", shell) == 0)
        for command in commands.flatMap(\.flattened) {
            #expect(h.stdout.contains(command.path.last ?? "?"))
            for option in command.options {
                #expect(h.stdout.contains(shell == "fish" ? "-l " + option.name.dropFirst(2) : option.name))
            }
        }
    }

    @Test func completions_unknownShell_isUsageError() {
        let h = Harness()
        #expect(h.run("completions", "tcsh") == 64)
        #expect(h.err.first?.contains("bash, zsh, fish") == true)
    }

    /// FILES named `extension-bridge-host.allowed` while install wrote `.conf`, and left out the receipts
    /// of other bridges and the signing key (ManPage.files takes each path from the function the code uses).
    @Test func manPage_files_nameWhatInstallAndPackWrite_andExamplesAreCommands() {
        let h = Harness()
        #expect(h.run("man") == 0)
        let section = h.stdout.components(separatedBy: ".SH FILES").last?.components(separatedBy: ".SH ").first ?? ""
        for path in [
            "~/.local/share/extension\\-bridge/install\\-receipt.json", "~/.local/share/extension\\-bridge/receipts/",
            "~/.local/share/extension\\-bridge/keys/extension\\-bridge.pem",
            ManPage.escape(HostConfiguration.fileName(forExecutable: "extension-bridge-host")),
            "~/.local/share/" + ManPage.escape(GroupContainer.defaultGroupID),
        ] {
            #expect(section.contains(".I " + path), "\(path)")
        }
        for (command, _) in ManPage.examples {
            let words = command.split(separator: " ").map(String.init)
            #expect(words.first == "extension-bridge")
            let verb = BridgeCLI.commands.flatMap(\.flattened).first { words.dropFirst().starts(with: $0.path) }
            #expect(verb != nil, "\(command): no such command")
        }
    }

    /// docs/INSTALLING.md's table of variables is the man page's ENVIRONMENT, row for row: the two
    /// listed different variables and both missed XDG_DATA_HOME. On a difference this prints the
    /// table to paste between the markers.
    @Test func installingEnvironmentTable_isTheManPagesEnvironment() throws {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/INSTALLING.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        let begin = "<!-- environment: ManPage.environment -->\n"
        let end = "<!-- end environment -->"
        let start = try #require(text.range(of: begin))
        let stop = try #require(text.range(of: end, range: start.upperBound..<text.endIndex))
        let table =
            (["| variable | what it does |", "|---|---|"]
            + ManPage.environment.map { "| `\($0.name)` | \($0.text) |" }).joined(separator: "\n") + "\n"
        #expect(String(text[start.upperBound..<stop.lowerBound]) == table, "docs/INSTALLING.md's table is:\n\(table)")
    }

    @Test func manPage_hasEveryCommandAndOption_escapedForRoff() {
        let h = Harness()
        #expect(h.run("man") == 0)
        #expect(h.stdout.hasPrefix(".TH EXTENSION\\-BRIDGE 1"))
        for command in commands.flatMap(\.flattened) {
            #expect(h.stdout.contains(ManPage.escape(command.synopsis)))
            for option in command.options { #expect(h.stdout.contains(ManPage.escape(option.name))) }
        }
        #expect(!h.stdout.split(separator: "\n").contains { $0.hasPrefix("'") })
        #expect(ManPage.escape(".hidden \\ -x") == "\\&.hidden \\e \\-x")
    }
}
