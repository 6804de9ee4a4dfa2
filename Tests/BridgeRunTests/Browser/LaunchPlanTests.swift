import BridgeJSON
import Testing

@testable import BridgeRun

@Suite struct LaunchPlanTests {
    let folder = RunFolder(path: "/tmp/extension-bridge-run-abc123")
    let project = RunProject(
        kind: .generated, name: "ReadLater", folder: "/p", extensionFolder: "/p/extension",
        hostName: "com.example.readlater", hostProduct: "readlater-host", group: "group.com.example.readlater",
        chromiumID: "abcdefghijklmnopabcdefghijklmnop", firefoxID: "readlater@example.com")

    func inputs(_ browser: RunBrowser, environment: [String: String] = ["HOME": "/home/u", "PATH": "/usr/bin"])
        -> LaunchPlan.Inputs
    {
        LaunchPlan.Inputs(
            browser: browser, executable: "/usr/lib/chromium/chromium", project: project, folder: folder,
            hostPath: folder.hostFolder + "/readlater-host", environment: environment,
            container: "/home/u/.local/share/group.com.example.readlater", xauthority: "/home/u/.Xauthority",
            headless: true, isRoot: true, firefoxUUID: "11111111-2222-4333-8444-555555555555")
    }

    @Test func chromium_getsTheProfileTheExtensionAndThePipe_andTheManifestInTheProfile() throws {
        let plan = LaunchPlan(inputs(.chromium))
        #expect(plan.arguments.contains("--user-data-dir=\(folder.profile)"))
        #expect(plan.arguments.contains("--load-extension=/p/extension"))
        #expect(plan.arguments.contains("--remote-debugging-pipe"))
        // Its load errors reach run only on standard error, and only with this.
        #expect(plan.arguments.contains("--enable-logging=stderr"))
        #expect(plan.arguments.contains("--headless=new"))
        #expect(plan.arguments.contains("--no-sandbox"))
        #expect(!plan.arguments.contains { $0.hasPrefix("--remote-debugging-port") })
        let manifest = try #require(plan.files.first)
        #expect(manifest.path == folder.profile + "/NativeMessagingHosts/com.example.readlater.json")
        let json = try JSONParser.parse(manifest.bytes)
        #expect(json["path"] == .string(folder.hostFolder + "/readlater-host"))
        #expect(json["allowed_origins"] == ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"])
        var windowed = inputs(.chromium)
        windowed.headless = false
        windowed.isRoot = false
        let plain = LaunchPlan(windowed)
        #expect(!plain.arguments.contains("--headless=new") && !plain.arguments.contains("--no-sandbox"))
    }

    @Test func firefox_getsItsManifestUnderThePrivateHome_andItsServerOnASocketNotAPort() throws {
        let plan = LaunchPlan(inputs(.firefox))
        let index = try #require(plan.arguments.firstIndex(of: "--start-debugger-server"))
        #expect(plan.arguments[index + 1] == folder.devToolsSocket)
        #expect(plan.arguments.contains("--headless"))
        let paths = plan.files.map(\.path)
        #expect(
            paths == [
                folder.home + "/.mozilla/native-messaging-hosts/com.example.readlater.json",
                folder.profile + "/user.js",
            ])
        #expect(try JSONParser.parse(plan.files[0].bytes)["allowed_extensions"] == ["readlater@example.com"])
        let preferences = String(decoding: plan.files[1].bytes, as: UTF8.self)
        #expect(preferences.contains("user_pref(\"devtools.debugger.prompt-connection\", false);"))
        #expect(preferences.contains("11111111-2222-4333-8444-555555555555"))
        #expect(preferences.contains("user_pref(\"extensions.enabledScopes\", 5);"))
    }

    @Test func theBrowsersEnvironment_keepsTheUsersFoldersOutOfReach_andTellsTheHostWhatItNeeds() {
        let environment = LaunchPlan(inputs(.firefox)).environment
        #expect(environment["HOME"] == folder.home)
        for name in ["XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"] {
            #expect(environment[name]?.hasPrefix(folder.home + "/") == true)
        }
        #expect(environment["PATH"] == "/usr/bin")
        #expect(environment["XAUTHORITY"] == "/home/u/.Xauthority")
        #expect(environment["EXTENSION_BRIDGE_TRACE"] == folder.traceSocket)
        #expect(environment["EXTENSION_BRIDGE_ALLOWED_CALLERS"] == "readlater@example.com")
        #expect(environment["EXTENSION_BRIDGE_GROUP"] == "group.com.example.readlater")
        #expect(environment["EXTENSION_BRIDGE_CONTAINER"] == "/home/u/.local/share/group.com.example.readlater")
        #expect(environment["EXTENSION_BRIDGE_LOG"] == "info")
        let chosen = LaunchPlan(
            inputs(.chromium, environment: ["EXTENSION_BRIDGE_LOG": "debug", "XAUTHORITY": "/run/x"])
        ).environment
        #expect(chosen["EXTENSION_BRIDGE_LOG"] == "debug")
        #expect(chosen["XAUTHORITY"] == "/run/x")
        #expect(chosen["EXTENSION_BRIDGE_ALLOWED_CALLERS"] == "chrome-extension://abcdefghijklmnopabcdefghijklmnop/")
    }
}
