import BridgeJSON
import BridgeProtocol
import BridgeSystem
import NativeMessaging
import SharedSuite
import TestSupport
import Testing

@testable import BridgeHost

@Suite struct HostProgramTests {
    /// A person running the host by hand gets its version, its actions or its usage; anything
    /// else (a browser's arguments) runs the host.
    @Test func information_forVersionActionsAndHelp_only() throws {
        let app = AppIdentity(name: "Linguisticat", version: "2.0.0")
        let program = HostProgram(
            configuration: HostProgram.Configuration(name: "linguisticat-host", app: app),
            actions: BuiltInActions.all + [EchoAction()])
        #expect(program.information(for: ["--version"]) == app.versionLine(program: "linguisticat-host") + "\n")
        let actions = try #require(program.information(for: ["--actions"]))
        #expect(actions.split(separator: "\n").contains("echo"))
        #expect(actions.split(separator: "\n").contains("hello"))
        let usage = try #require(program.information(for: ["-h"]))
        #expect(usage == program.information(for: ["--help"]))
        #expect(usage.contains("linguisticat-host.conf"))
        #expect(program.information(for: ["chrome-extension://abc/"]) == nil)
        #expect(program.information(for: []) == nil)
    }

    /// Every environment variable the host reads is in its usage.
    @Test func usage_namesEveryVariableTheHostReads() {
        let usage = HostProgram().usage
        for name in [
            "EXTENSION_BRIDGE_ALLOWED_CALLERS", "EXTENSION_BRIDGE_CONTAINER", "EXTENSION_BRIDGE_GROUP",
            "EXTENSION_BRIDGE_LOG", "EXTENSION_BRIDGE_MAX_REQUEST_BYTES", "EXTENSION_BRIDGE_WATCH",
            "EXTENSION_BRIDGE_WRITE_TIMEOUT_MS",
        ] {
            #expect(usage.contains(name), "usage does not name \(name)")
        }
    }

    /// A limit from the environment never traps, whatever the text: out of range is clamped,
    /// not a number is the default.
    @Test func clamped_neverTraps() {
        #expect(HostProgram.clamped("500", default: 7, range: 1...1_000) == 500)
        #expect(HostProgram.clamped("-5", default: 7, range: 1...1_000) == 1)
        #expect(HostProgram.clamped("99999999999999999999999", default: 7, range: 1...1_000) == 7)
        #expect(HostProgram.clamped("1e3", default: 7, range: 1...1_000) == 7)
        #expect(HostProgram.clamped(nil, default: 7, range: 1...1_000) == 7)
    }

    /// A refused caller gets one `caller_not_allowed` frame saying what to run, before any
    /// request is read, and the host exits with the status that says so.
    @Test func refuse_sendsOneFrame_andTheRefusedStatus() throws {
        let (read, write) = try FileDescriptor.pipe()
        defer { read.close() }
        let channel = StdioChannel(input: read, output: write, maximumLength: 1_024)
        let lines = LogLines()
        let caller = Caller(kind: .chromium, identity: "chrome-extension://evil\u{1B}[2J/")
        let status = HostProgram.refuse(
            caller, policy: CallerPolicy(allowed: [], source: "test"), on: channel,
            logger: Logger(level: .error) { lines.append($0) })
        write.close()
        #expect(status == HostIdentity.callerRefusedStatus)
        var decoder = FrameDecoder(maximumLength: 4_096)
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while case let n = try buffer.withUnsafeMutableBytes({ try read.read(into: $0) }), n > 0 {
            decoder.feed(Array(buffer[0..<n]))
        }
        guard case .frame(let body)? = decoder.nextEvent() else {
            Issue.record("no frame")
            return
        }
        #expect(decoder.nextEvent() == nil)
        let reply = try JSONParser.parse(body)
        #expect(reply["code"] == "caller_not_allowed")
        #expect(reply["message"]?.stringValue?.contains("extension-bridge install --extension-id ID") == true)
        #expect(lines.all.count == 1)
        #expect(!lines.all[0].contains("\u{1B}"), "the log shows the caller escaped")
    }

    /// A host made by `extension-bridge new` names its project's commands (`--config bridge.json`,
    /// `scripts/install.sh`), which change that bridge and no other; the built-in host its own.
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

    /// The in-process endpoint (a Safari handler's) reads the group's real suite.
    @Test func inProcessEndpoint_servesTheGroupsSuite() throws {
        let tmp = TemporaryFolder()
        defer { tmp.remove() }
        let environment = Environment(["EXTENSION_BRIDGE_CONTAINER": tmp.path])
        try Suite(container: GroupContainer(path: tmp.path)).update { $0["extensionEnabled"] = .bool(true) }
        let endpoint = HostProgram.inProcessEndpoint(
            groupID: "group.test", callerIdentity: "safari", actions: BuiltInActions.all, environment: environment)
        #expect(endpoint.reply(to: ["action": "getSettings"])["settings"]?["enabled"] == true)
        #expect(endpoint.reply(to: ["action": "hello"])["caller"] == "safari")
        let nowhere = HostProgram.inProcessEndpoint(
            groupID: "group.test", callerIdentity: "safari", actions: BuiltInActions.all, environment: Environment([:]))
        #expect(nowhere.reply(to: ["action": "getSettings"])["code"] == "storage_error")
    }
}

/// Log lines a test's logger wrote (one test's thread writes and reads them).
final class LogLines: @unchecked Sendable {
    private(set) var all: [String] = []
    func append(_ line: String) { all.append(line) }
}
