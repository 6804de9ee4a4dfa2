import Testing

@testable import BridgeHost

/// What a host tells people to run: the built-in bridge's commands, or, for a host made by
/// `extension-bridge new`, its project's (`--config bridge.json`, `scripts/install.sh`), which
/// change that bridge and no other.
@Suite struct HostProgramTests {
    @Test func aProjectsHost_namesItsProjectsCommands_inHelpAndRefusal() {
        let program = HostProgram(
            configuration: HostProgram.Configuration(
                name: "readlater-host", defaultGroupID: "group.com.example.readlater", project: "ReadLater"))
        let help = program.usage
        #expect(help.contains("run `scripts/install.sh` in the ReadLater project"), "\(help)")
        #expect(help.contains("`extension-bridge install --config bridge.json`"))
        #expect(help.contains("`extension-bridge doctor --config bridge.json`"))
        #expect(!help.contains("run `extension-bridge install`;"), "never the built-in bridge's install")
        let (allow, check) = program.configuration.allowAndCheck
        #expect(allow.contains("`scripts/install.sh --extension-id ID`"))
        #expect(allow.contains("`extension-bridge install --config bridge.json --extension-id ID`"))
        #expect(check == "`extension-bridge doctor --config bridge.json` in the ReadLater project")
    }

    @Test func theBuiltInHost_namesTheBuiltInCommands() {
        let program = HostProgram()
        #expect(program.usage.contains("run `extension-bridge install`; to check it, `extension-bridge doctor`."))
        #expect(!program.usage.contains("--config"))
        #expect(program.configuration.allowAndCheck.allow == "`extension-bridge install --extension-id ID`")
    }
}
