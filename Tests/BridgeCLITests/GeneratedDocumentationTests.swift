import BridgeProtocol
import BridgeSystem
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
