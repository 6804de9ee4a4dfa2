import Foundation
import Testing

@testable import BridgeCLI

/// Options are declared once per verb and read through the declaration, so a renamed option cannot
/// leave a reader asking for the old name (which would silently read nil).
@Suite struct OptionDeclarationTests {
    let commands = BridgeCLI.commands

    @Test func readingThroughTheDeclaration_findsTheParsedValue() throws {
        let install = try Invocation(
            ["install", "--destdir", "/stage", "--system", "--browser", "chromium", "--browser", "firefox"],
            commands: commands)
        #expect(install[InstallVerbOptions.destination] == "/stage")
        #expect(install.has(BrowserOptions.system))
        #expect(install[BrowserOptions.browser] == "chromium,firefox")
        #expect(!install.has(InstallVerbOptions.dryRun))
        let drain = try Invocation(["queue", "drain", "--exec", "cat", "--timeout", "5"], commands: commands)
        #expect(drain[QueueVerb.exec] == "cat")
        #expect(drain[QueueVerb.timeout] == "5")
    }

    @Test func everyOptionAVerbReads_isOneItDeclares() throws {
        // Each verb's reads, by declaration, against the options its spec lists.
        let declared: [(CommandSpec, [OptionSpec])] = [
            (
                InstallVerb.spec,
                [
                    InstallVerbOptions.destination, InstallVerbOptions.hostPath, InstallVerbOptions.logLevel,
                    InstallVerbOptions.crx,
                    InstallVerbOptions.key, InstallVerbOptions.dryRun,
                ]
            ),
            (
                PackVerb.spec,
                [
                    PackVerbOptions.out, PackVerbOptions.updateURL, PackVerbOptions.key, PackVerbOptions.deb,
                    PackVerbOptions.hostPath,
                ]
            ),
            (
                UpgradeVerb.spec,
                [
                    UpgradeVerbOptions.directory, UpgradeVerbOptions.packagePath, UpgradeVerbOptions.packageURL,
                    UpgradeVerbOptions.from,
                    UpgradeVerbOptions.force, UpgradeVerbOptions.dryRun,
                ]
            ),
            (DoctorVerb.spec, [DoctorVerbOptions.all]),
            (
                NewVerb.spec,
                [
                    NewVerbOptions.hostName, NewVerbOptions.group, NewVerbOptions.features, NewVerbOptions.fromSafari,
                    NewVerbOptions.directory, NewVerbOptions.packagePath, NewVerbOptions.packageURL,
                    NewVerbOptions.from, NewVerbOptions.force, NewVerbOptions.dryRun,
                ]
            ),
        ]
        for (spec, options) in declared {
            for option in options { #expect(spec.options.contains(option), "\(spec.path) lists \(option.name)") }
        }
    }

    @Test func noVerbReadsAnOptionByAStringOfItsOwn() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/BridgeCLI")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path))
        var offenders: [String] = []
        for case let path as String in files where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            if text.contains("flags[\"--") || text.contains("has(\"--") { offenders.append(path) }
        }
        #expect(offenders == [])
    }
}
