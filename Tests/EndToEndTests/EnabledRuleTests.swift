import BridgeJSON
import Foundation
import SharedSuite
import TestSupport
import Testing

/// One enabled rule for every writer: an app's `Suite.update`, the host's `setSettings` (the real
/// host binary over pipes) and the CLI binary each write `extensionEnabled` or the seed's
/// `user_defaults_suite_enabled`; in every order the last write wins, and `getSettings` and the
/// seed's `request:enabled_status` agree on it.
@Suite(.serialized) struct EnabledRuleTests {
    static let origin = "chrome-extension://testext/"

    enum Writer: String, CaseIterable, CustomStringConvertible {
        case appSeedKey, appSetEnabled, hostSetSettings, cliSeedKey, cliEnableDisable, cliImportSeedKey
        var description: String { rawValue }
    }

    func write(_ on: Bool, by writer: Writer, container: String, env: [String: String]) throws {
        let suite = Suite(container: GroupContainer(path: container))
        switch writer {
        case .appSeedKey:
            try suite.update { $0[SuiteKeys.legacyEnabled] = .bool(on) }
        case .appSetEnabled:
            try suite.update { SuiteKeys.setEnabled(on, in: &$0) }
        case .hostSetSettings:
            let host = try runProcess(
                Binaries.host, [Self.origin], environment: env,
                input: frameBytes(["action": "setSettings", "settings": ["enabled": .bool(on)], "id": 1]))
            #expect(try splitFrames(host.stdout).first?["settings"]?["enabled"] == .bool(on))
        case .cliSeedKey:
            let cli = try runProcess(
                Binaries.cli, ["write", SuiteKeys.legacyEnabled, "-bool", on ? "true" : "false"], environment: env)
            #expect(cli.status == 0, "\(cli.stderr)")
        case .cliImportSeedKey:  // `import` of an export whose seed key was changed
            var values = try suite.snapshot().values
            values[SuiteKeys.legacyEnabled] = .bool(on)
            let file = container + ".import.json"
            try Data(Suite.encode(values)).write(to: URL(fileURLWithPath: file))
            let cli = try runProcess(Binaries.cli, ["import", file], environment: env)
            #expect(cli.status == 0, "\(cli.stderr)")
        case .cliEnableDisable:
            #expect(try runProcess(Binaries.cli, [on ? "enable" : "disable"], environment: env).status == 0)
        }
    }

    /// What the host answers: getSettings' enabled, and the seed's legacy message.
    func hostSays(_ env: [String: String]) throws -> (JSONValue?, JSONValue?) {
        let input =
            frameBytes(["action": "getSettings", "id": 1]) + frameBytes(["message": "request:enabled_status"])
        let replies = try splitFrames(
            try runProcess(Binaries.host, [Self.origin], environment: env, input: input).stdout)
        return (replies.first?["settings"]?["enabled"], replies.last?["delivery:enabled_status"])
    }

    static var pairs: [(Writer, Writer)] {
        Writer.allCases.flatMap { a in Writer.allCases.filter { $0 != a }.map { (a, $0) } }
    }

    @Test(arguments: pairs) func lastWriteWins_hostAndPageAgree(first: Writer, second: Writer) throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let container = tmp.path + "/c"
        let env = [
            "EXTENSION_BRIDGE_CONTAINER": container, "EXTENSION_BRIDGE_ALLOWED_CALLERS": Self.origin, "HOME": tmp.path,
        ]
        // The trap: both keys stored, as after the CLI or the popup stored extensionEnabled.
        try GroupContainer(path: container).create()
        try Suite(container: GroupContainer(path: container)).replaceAll([
            SuiteKeys.enabled: .bool(true), SuiteKeys.legacyEnabled: .bool(true),
        ])
        for (writer, on) in [(first, false), (second, true), (first, false)] {
            try write(on, by: writer, container: container, env: env)
            let (settings, legacy) = try hostSays(env)
            #expect(settings == .bool(on), "after \(writer) wrote \(on)")
            #expect(legacy == .bool(on), "after \(writer) wrote \(on)")
            let values = try Suite(container: GroupContainer(path: container)).snapshot()
            #expect(values.bool(SuiteKeys.enabled) == on && values.bool(SuiteKeys.legacyEnabled) == on)
        }
    }
}
