import BridgeJSON
import BridgeProtocol
import BridgeSystem
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

@Suite struct HostSettingsTests {
    let exe = "/opt/app/bin/extension-bridge-host"

    func load(
        _ env: [String: String], files: [String: String], owner: UInt32 = 1000, permissions: Int = 0o644
    ) -> HostSettings {
        HostSettings.load(
            environment: Environment(env), defaultGroupID: "group.default", executablePath: exe,
            readFile: { files[$0].map { Array($0.utf8) } }, ownership: { _ in (owner, permissions) }, userID: 1000)
    }

    /// A configuration another user owns, or its group or every user may write, serves nobody, with
    /// a warning that names it (a group member added their own extension's id); the user's own or
    /// root's, writable by its owner only, is read.
    @Test func untrustedConfiguration_servesNobody() {
        let files = ["/opt/app/bin/extension-bridge-host.conf": "group = g.one\nallow = a@b\n"]
        for (owner, permissions, why) in [
            (1001 as UInt32, 0o644, "belongs to another user (uid 1001)"),
            (1000, 0o666, "is writable by every user"), (1000, 0o664, "is writable by its group"),
        ] {
            let s = load([:], files: files, owner: owner, permissions: permissions)
            #expect(s.policy.allowed.isEmpty && s.groupID == "group.default", "\(why)")
            #expect(
                s.warnings == [
                    "/opt/app/bin/extension-bridge-host.conf \(why); serving nobody (extension-bridge doctor says how to fix it)"
                ])
        }
        for (owner, permissions) in [(1000 as UInt32, 0o644), (0, 0o644), (1000, 0o600)] {
            #expect(load([:], files: files, owner: owner, permissions: permissions).policy.allowed == ["a@b"])
        }
        let legacy = ["/opt/app/bin/extension-bridge-host.allowed": "a@b\n"]
        #expect(load([:], files: legacy, permissions: 0o646).policy.allowed.isEmpty)
    }

    @Test func configurationFile_givesGroupLevelAndCallers() {
        let s = load(
            [:], files: ["/opt/app/bin/extension-bridge-host.conf": "group = g.one\nlog = debug\nallow = a@b\n"])
        #expect(s.groupID == "g.one")
        #expect(s.logLevel == .debug)
        #expect(s.policy.allowed == ["a@b"])
        #expect(s.warnings.isEmpty)
    }

    @Test func environment_overridesTheFile() {
        let files = ["/opt/app/bin/extension-bridge-host.conf": "group = g.one\nlog = debug\nallow = a@b\n"]
        let s = load(["EXTENSION_BRIDGE_GROUP": "g.two", "EXTENSION_BRIDGE_LOG": "error"], files: files)
        #expect(s.groupID == "g.two")
        #expect(s.logLevel == .error)
        let listed = load(["EXTENSION_BRIDGE_ALLOWED_CALLERS": "x@y"], files: files)
        #expect(listed.policy.allowed == ["x@y"])
        #expect(listed.groupID == "group.default", "the environment's list means no file is read")
    }

    /// A level the host does not know (`verbose`) is said on stderr, not silently taken as `warn`;
    /// every level install writes is one the host reads.
    @Test func unknownLogLevel_isAWarningNamingIt_andEveryWrittenLevelIsRead() {
        let conf = "/opt/app/bin/extension-bridge-host.conf"
        let s = load([:], files: [conf: "log = verbose\nallow = a@b\n"])
        #expect(s.logLevel == .warn)
        #expect(
            s.warnings == [
                "\(conf): unknown log level 'verbose' ignored; logging at warn (levels: error, warn, info, debug)"
            ])
        let fromEnvironment = load(["EXTENSION_BRIDGE_LOG": "loud"], files: [conf: "log = debug\n"])
        #expect(fromEnvironment.warnings.first?.hasPrefix("EXTENSION_BRIDGE_LOG: unknown log level 'loud'") == true)
        for name in HostConfiguration.logLevels {
            #expect(load([:], files: [conf: "log = \(name)\n"]).warnings.isEmpty, "\(name)")
            #expect(LogLevel(name: name) != nil, "\(name)")
        }
    }

    @Test func legacyAllowlist_whenNoConfigurationFile() {
        let s = load([:], files: ["/opt/app/bin/extension-bridge-host.allowed": "chrome-extension://abc\n"])
        #expect(s.policy.allowed == ["chrome-extension://abc/"])
        #expect(s.groupID == "group.default")
    }

    @Test func nothing_servesNobody_andANewerFormatServesNobodyWithAWarning() {
        #expect(load([:], files: [:]).policy.allowed.isEmpty)
        let newer = load(
            [:],
            files: [
                "/opt/app/bin/extension-bridge-host.conf": "format = 9\nallow = a@b\n",
                "/opt/app/bin/extension-bridge-host.allowed": "a@b\n",
            ])
        #expect(newer.policy.allowed.isEmpty)
        #expect(newer.warnings.first?.contains("newer") == true)
    }
}
