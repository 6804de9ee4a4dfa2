import BridgeJSON
import BridgeProtocol
import BrowserSupport

/// How `run` starts a browser: its arguments, its environment and the files it reads
/// (the host manifest, Firefox's preferences), all inside the run's private folder.
/// Pure: the session writes the files and spawns.
public struct LaunchPlan: Equatable, Sendable {
    /// A file to write before the browser starts (mode 0600).
    public struct File: Equatable, Sendable {
        public var path: String
        public var bytes: [UInt8]
    }

    public var browser: RunBrowser
    public var executable: String
    public var arguments: [String]
    public var environment: [String: String]
    public var files: [File]

    /// What the plan is made from.
    public struct Inputs: Sendable {
        public var browser: RunBrowser
        public var executable: String
        public var project: RunProject
        public var folder: RunFolder
        /// The host the manifest names (`folder.hostFolder/<product>`).
        public var hostPath: String
        /// This process's environment, which the browser gets changed as below.
        public var environment: [String: String]
        /// The group container the host serves, as it is for the user (not under the browser's HOME).
        public var container: String
        /// The user's X authority file, when the environment does not name one and it exists.
        public var xauthority: String?
        /// No window (tests, scripts); Chromium then runs `--headless=new`, Firefox `--headless`.
        public var headless: Bool
        /// Run as root: Chromium refuses to start without `--no-sandbox` then.
        public var isRoot: Bool
        /// Firefox: the UUID of the add-on's `moz-extension://` origin, fixed in the profile.
        public var firefoxUUID: String

        public init(
            browser: RunBrowser, executable: String, project: RunProject, folder: RunFolder, hostPath: String,
            environment: [String: String], container: String, xauthority: String?, headless: Bool, isRoot: Bool,
            firefoxUUID: String
        ) {
            self.browser = browser
            self.executable = executable
            self.project = project
            self.folder = folder
            self.hostPath = hostPath
            self.environment = environment
            self.container = container
            self.xauthority = xauthority
            self.headless = headless
            self.isRoot = isRoot
            self.firefoxUUID = firefoxUUID
        }
    }

    public init(_ inputs: Inputs) {
        let project = inputs.project
        let folder = inputs.folder
        browser = inputs.browser
        executable = inputs.executable
        let caller: String
        let manifest: HostManifest
        switch inputs.browser {
        case .chromium:
            caller = ExtensionOrigin.chromium(id: project.chromiumID)
            manifest = HostManifest(
                name: project.hostName, path: inputs.hostPath, family: .chromium, allowed: [caller])
            // Chromium started with --user-data-dir reads host manifests there, and only there per user.
            files = [
                File(path: folder.profile + "/NativeMessagingHosts/\(project.hostName).json", bytes: manifest.bytes)
            ]
            arguments =
                [
                    "--user-data-dir=\(folder.profile)", "--load-extension=\(project.extensionFolder(for: .chromium))",
                    "--remote-debugging-pipe", "--no-first-run", "--no-default-browser-check", "--disable-sync",
                    "--password-store=basic",
                ] + ChromiumLog.arguments + (inputs.headless ? ["--headless=new"] : [])
                + (inputs.isRoot ? ["--no-sandbox"] : []) + ["about:blank"]
        case .firefox:
            caller = project.firefoxID
            manifest = HostManifest(
                name: project.hostName, path: inputs.hostPath, family: .firefox, allowed: [caller])
            // Firefox reads host manifests only from $HOME/.mozilla: the private HOME is why it has one.
            files = [
                File(
                    path: folder.home + "/.mozilla/native-messaging-hosts/\(project.hostName).json",
                    bytes: manifest.bytes),
                File(
                    path: folder.profile + "/user.js",
                    bytes: Array(
                        LaunchPlan.firefoxPreferences(addonID: project.firefoxID, uuid: inputs.firefoxUUID).utf8)),
            ]
            arguments =
                [
                    "--no-remote", "--new-instance", "--profile", folder.profile, "--start-debugger-server",
                    folder.devToolsSocket,
                ] + (inputs.headless ? ["--headless"] : []) + ["about:blank"]
        }
        environment = LaunchPlan.browserEnvironment(inputs, caller: caller)
    }

    /// The browser's environment: this process's, with HOME and the XDG folders inside the
    /// private folder (nothing the user's own profiles read is written), and what the host
    /// must know, since hosts inherit the browser's environment: who may call it, its group,
    /// where the user's container is (not under the private HOME), the trace socket, and log
    /// level `info` unless one is set.
    static func browserEnvironment(_ inputs: Inputs, caller: String) -> [String: String] {
        var environment = inputs.environment
        let home = inputs.folder.home
        environment["HOME"] = home
        environment["XDG_CONFIG_HOME"] = home + "/.config"
        environment["XDG_CACHE_HOME"] = home + "/.cache"
        environment["XDG_DATA_HOME"] = home + "/.local/share"
        environment["XDG_STATE_HOME"] = home + "/.local/state"
        // An X server's cookie is looked up under HOME unless named: keep the user's.
        if environment["XAUTHORITY"] == nil, let xauthority = inputs.xauthority {
            environment["XAUTHORITY"] = xauthority
        }
        if inputs.browser == .firefox { environment["MOZ_CRASHREPORTER_DISABLE"] = "1" }
        environment[EnvironmentVariable.trace.name] = inputs.folder.traceSocket
        environment[EnvironmentVariable.allowedCallers.name] = caller
        environment[EnvironmentVariable.group.name] = inputs.project.group
        environment[EnvironmentVariable.container.name] = inputs.container
        if environment[EnvironmentVariable.log.name] == nil { environment[EnvironmentVariable.log.name] = "info" }
        return environment
    }

    /// Firefox's preferences for the throwaway profile: its debugging server without a
    /// prompt (it listens on a socket in the private folder only), the add-on's origin UUID
    /// known before start, no system add-ons (an installed copy of the same bridge), and no
    /// first-run pages, telemetry or update checks.
    static func firefoxPreferences(addonID: String, uuid: String) -> String {
        let uuids = JSONWriter.string([addonID: .string(uuid)])
        let preferences: [(String, JSONValue)] = [
            ("devtools.debugger.remote-enabled", true),
            ("devtools.debugger.prompt-connection", false),
            ("devtools.chrome.enabled", true),
            ("extensions.webextensions.uuids", .string(uuids)),
            // The profile (1) and the application's own (4), not the system folder (8).
            ("extensions.enabledScopes", 5),
            ("extensions.autoDisableScopes", 0),
            ("xpinstall.signatures.required", false),
            ("browser.shell.checkDefaultBrowser", false),
            ("browser.startup.page", 0),
            ("browser.startup.homepage", "about:blank"),
            ("startup.homepage_welcome_url", "about:blank"),
            ("startup.homepage_welcome_url.additional", ""),
            ("browser.aboutwelcome.enabled", false),
            ("datareporting.policy.dataSubmissionEnabled", false),
            ("datareporting.policy.firstRunURL", ""),
            ("toolkit.telemetry.reportingpolicy.firstRun", false),
            ("app.update.auto", false),
            ("app.update.enabled", false),
            ("extensions.update.enabled", false),
            ("termsofuse.bypassNotification", true),
        ]
        return preferences.map { "user_pref(\(JSONWriter.string(.string($0.0))), \(JSONWriter.string($0.1)));\n" }
            .joined()
    }
}
