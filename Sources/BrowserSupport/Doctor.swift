import BridgeJSON
import BridgeProtocol
import BridgeSystem
import NativeMessaging

/// Checks every place a browser reads host manifests, then launches the host
/// exactly as the browser would and does a framed `hello` round trip; then reads
/// each profile for the extension itself (`Doctor+Profiles.swift`).
public struct Doctor {
    public var home: String
    public var hostName: String
    public var identity: ExtensionIdentity
    /// Variables passed to the host besides HOME and PATH (the browser passes its own environment).
    public var passEnvironment: [String: String]
    /// How the fix lines run this tool (`Doctor.toolCommand`): `extension-bridge`, or this
    /// program's path when that name on PATH is not this program.
    public var tool = "extension-bridge"
    /// What the fix lines add to `extension-bridge install` / `uninstall` so they name this
    /// bridge (`--config '…/bridge.json'`, `--host-name NAME`), shell-quoted; empty for the built-in one.
    public var bridgeArguments = ""
    /// The command a fix line installs with, before `--browser ID`: nil for `extension-bridge install`
    /// with `bridgeArguments`; a project's `cd '…' && scripts/install.sh`, which builds its host first
    /// (`install --config` alone fails while the project has no build).
    public var installCommand: String?
    public var timeoutMilliseconds: Int64 = 5000
    /// What the bridge's newest build says of its actions (`doctor --config`: its host's
    /// `--actions`): an installed host whose `hello` lists others is stale; a build that was not
    /// run is said, with why.
    public var projectActions: ProjectBuild.Actions = .unknown
    /// The user whose programs doctor runs: a host (or build) that fails `PathTrust` for them is not run.
    public var userID: UInt32 = Platform.effectiveUserID
    /// The command that installs the newest build, for a stale host's fix line; nil for `tool install`.
    public var reinstallCommand: String?
    /// Whether to read each profile for the extension itself (`profileChecks`).
    public var checkProfiles = true
    /// Prefixed to the system folders the profile checks look in (tests).
    public var systemRoot = ""

    public init(home: String, hostName: String, identity: ExtensionIdentity, passEnvironment: [String: String]) {
        self.home = home
        self.hostName = hostName
        self.identity = identity
        self.passEnvironment = passEnvironment
    }

    /// The checks for `browsers`; with `userDataDirectory`, only that profile's folder; with
    /// `systemOnly`, only the system folders (a user manifest that shadows one is still named).
    public func run(browsers: [Browser], userDataDirectory: String?, systemOnly: Bool = false) -> [DoctorCheck] {
        var checks: [DoctorCheck] = []
        for browser in browsers {
            var locations =
                userDataDirectory.map { [HostLocation.profile($0, browser: browser)] }
                ?? HostLocation.all(for: browser, home: home, systemRoot: systemRoot)
            var shadowingUserManifest: String?
            if systemOnly {
                let user = locations.first { $0.scope == .user }?.manifestPath(hostName: hostName)
                if let user, (try? FileSystem.status(user, followLinks: true)) != nil { shadowingUserManifest = user }
                locations = locations.filter { $0.scope == .system }
                if locations.isEmpty { continue }
            }
            let installCommand = command(installing: browser, userDataDirectory: userDataDirectory)
            var found: [DoctorCheck] = []
            for location in locations {
                let path = location.manifestPath(hostName: hostName)
                guard (try? FileSystem.status(path, followLinks: true)) != nil else {
                    checks.append(
                        DoctorCheck(
                            browser: browser.id, scope: location.scope.rawValue, path: path, status: .absent,
                            detail: "no manifest", fix: nil))
                    continue
                }
                var check = examine(
                    path: path, browser: browser, location: location, installCommand: installCommand,
                    installed: installedIDs(browser: browser, userDataDirectory: userDataDirectory))
                // A Flatpak build reads only its own folder; user and system shadow each other.
                let shadowedBy =
                    location.scope == .flatpak
                    ? nil : found.first(where: { $0.scope != "flatpak" })?.path ?? shadowingUserManifest
                if let shadowedBy {
                    check = shadowed(check, by: shadowedBy, browser: browser, installCommand: installCommand)
                    if shadowingUserManifest != nil {
                        check.fix =
                            "\(tool) uninstall --browser \(browser.id)\(bridgeArguments)   (to use the system install)"
                    }
                } else if location.scope != .flatpak {
                    check.inUse = true
                }
                found.append(check)
                checks.append(check)
            }
            if found.isEmpty {
                let path = locations[0].manifestPath(hostName: hostName)
                checks.append(
                    DoctorCheck(
                        browser: browser.id, scope: locations[0].scope.rawValue, path: path, status: .error,
                        detail: "the host is not installed for \(browser.displayName)", fix: installCommand))
            }
            if checkProfiles && !systemOnly {
                checks += profileChecks(browser: browser, userDataDirectory: userDataDirectory)
            }
        }
        return checks
    }

    /// A manifest the browser never reads, because `user` comes first: a warning whatever is wrong with
    /// it (it cannot refuse the connection), saying which one is used. A file the Debian package owns is
    /// never to be removed by hand: the fix removes the per-user install, so the browser reads the
    /// package's; any other file is removed or made identical.
    func shadowed(_ check: DoctorCheck, by user: String, browser: Browser, installCommand: String) -> DoctorCheck {
        var check = check
        let broken = check.status == .error
        check.status = .warning
        check.detail =
            (broken ? "not used, so it cannot refuse the connection (" + check.detail + ")" : "not used")
            + "; shadowed by \(user), which the browser reads first and uses"
        check.fix =
            PackagedFiles(root: systemRoot).owns(check.path)
            ? "\(tool) uninstall --browser \(browser.id)\(bridgeArguments)   (to use the package's manifest instead)"
            : "rm \(check.path.shellQuoted)   (or make it identical: \(installCommand))"
        return check
    }

    /// Which of our ids `browser` has installed: one an `External Extensions` file names, or one a
    /// profile records. The host must allow each of them, not just one of ours.
    func installedIDs(browser: Browser, userDataDirectory: String?) -> [String] {
        var ids: [String] = []
        func add(_ presence: ExtensionPresence) {
            switch presence {
            case .enabled(let id, _), .disabled(let id, _, _, _), .hostAccessWithdrawn(let id, _):
                if !ids.contains(id) { ids.append(id) }
            case .removedByUser, .notInstalled, .unreadable: break
            }
        }
        switch browser.family {
        case .chromium:
            let folder = userDataDirectory ?? FileSystem.parentPath(home + "/" + browser.linuxUserHosts)
            ids = identity.chromiumIDs.filter {
                (try? FileSystem.status(folder + "/External Extensions/" + $0 + ".json")) != nil
            }
            for profile in ChromiumProfiles.list(userDataDirectory: folder).profiles {
                add(ChromiumProfiles.presence(profilePath: profile.path, ids: identity.chromiumIDs))
            }
            return ids.map(ExtensionOrigin.chromium(id:))
        case .firefox:
            for profile in FirefoxProfiles.list(browser: browser, home: home).profiles {
                add(FirefoxProfiles.presence(profilePath: profile.path, ids: identity.firefoxIDs))
            }
            return ids
        }
    }

    /// Checks one manifest file and, when it looks right, talks to its host (as `installed`, the
    /// callers the browser has installed, when there are any).
    func examine(
        path: String, browser: Browser, location: HostLocation, installCommand: String, installed: [String] = []
    ) -> DoctorCheck {
        var check = DoctorCheck(
            browser: browser.id, scope: location.scope.rawValue, path: path, status: .error, detail: "",
            fix: installCommand)
        let json: JSONValue
        do {
            json = try JSONParser.parse(FileSystem.readFile(path, limit: 1 << 20))
        } catch {
            check.detail = "the manifest is not valid JSON (\(error))"
            return check
        }
        guard json["name"]?.stringValue == hostName else {
            check.detail =
                "\"name\" is \(json["name"].map { JSONWriter.string($0) } ?? "missing"), not the file's name \(hostName)"
            return check
        }
        guard json["type"]?.stringValue == "stdio" else {
            check.detail = "\"type\" must be \"stdio\""
            return check
        }
        guard let hostPath = json["path"]?.stringValue, hostPath.hasPrefix("/") else {
            check.detail = "\"path\" must be an absolute path"
            return check
        }
        // The manifest names the program doctor runs: one others could have written is not followed.
        if let refusal = PathTrust.refusal(path, userID: userID) {
            check.detail =
                "did not run the host it names: \(refusal); anyone who can write there can point the browser at "
                + "their own program"
            check.fix = refusal.fix ?? "remove it and install again: \(installCommand)"
            return check
        }
        guard FileSystem.isExecutable(hostPath) else {
            check.detail = "\"path\" \(hostPath) is missing or not executable"
            check.fix = hostFix(hostPath, installCommand: installCommand)
            return check
        }
        let allowedKey = HostIdentity.allowedCallersKey(chromium: browser.family == .chromium)
        let allowed = (json[allowedKey]?.arrayValue ?? []).compactMap(\.stringValue)
        let ours = browser.family == .chromium ? identity.chromiumOrigins : identity.firefoxIDs
        if let refused = installed.first(where: { !allowed.contains($0) }) {
            check.detail =
                "\(allowedKey) does not include \(refused), the extension installed in \(browser.displayName): "
                + "the browser will not let it connect"
            return check
        }
        guard let caller = installed.first ?? ours.first(where: allowed.contains) else {
            check.detail = "\(allowedKey) does not include \(ours.joined(separator: ", "))"
            return check
        }
        return roundTrip(check, hostPath: hostPath, manifestPath: path, caller: caller, family: browser.family)
    }

    /// Why the file the host reads its allowed callers and group from (its configuration beside the
    /// executable, else the older allowlist file) fails `PathTrust`, or nil when it passes or is absent.
    func configurationRefusal(hostPath: String) -> PathTrust.Refusal? {
        let executable = FileSystem.resolvedPath(hostPath) ?? hostPath
        let folder = FileSystem.parentPath(executable)
        let names = [
            HostConfiguration.fileName(forExecutable: FileSystem.lastComponent(executable)),
            HostConfiguration.legacyAllowlistFileName,
        ]
        guard let path = names.map({ folder + "/" + $0 }).first(where: { (try? FileSystem.status($0)) != nil })
        else { return nil }
        if let refusal = PathTrust.refusal(path, userID: userID) { return refusal }
        // The host's own rule is stricter on the file than PathTrust (a private group's write too).
        guard let status = try? FileSystem.status(path, followLinks: true),
            let problem = HostConfiguration.trustProblem(
                owner: status.owner, permissions: status.permissions, userID: userID)
        else { return nil }
        return PathTrust.Refusal(
            path: path,
            reason: "\(problem) (mode \(String(status.permissions, radix: 8))), so the host serves nobody from it",
            fix: "chmod go-w " + path.shellQuoted)
    }

    /// Launches the host as the browser would and sends `hello`.
    func roundTrip(
        _ check: DoctorCheck, hostPath: String, manifestPath: String, caller: String, family: BrowserFamily
    ) -> DoctorCheck {
        var check = check
        let arguments = family == .chromium ? [caller] : [manifestPath, caller]
        var environment = passEnvironment
        environment["HOME"] = home
        environment["PATH"] = "/usr/local/bin:/usr/bin:/bin"
        guard let frame = try? FrameEncoder.encode(JSONWriter.bytes(["action": "hello", "id": "doctor"])) else {
            return check
        }
        let clock = MonotonicClock.system
        if let untrusted = untrustedHost(check, hostPath: hostPath) { return untrusted }
        let started = clock.milliseconds
        let result: Subprocess.Result
        do {
            result = try Subprocess.run(
                hostPath, arguments: arguments, environment: environment,
                workingDirectory: FileSystem.parentPath(hostPath), input: frame,
                timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            check.detail = "cannot start the host: \(error)"
            return check
        }
        let elapsed = clock.milliseconds - started
        if result.timedOut {
            check.detail = "the host did not answer hello within \(timeoutMilliseconds) ms"
            check.fix =
                "\(EnvironmentVariable.log.name)=debug \(hostPath.shellQuoted) \(caller.shellQuoted)   (to see where it hangs)"
            return check
        }
        guard !result.stdout.isEmpty else {
            let log = String(decoding: result.stderr.suffix(300), as: UTF8.self)
            check.detail = "the host wrote no reply (exit \(result.status))" + (log.isEmpty ? "" : ": \(log)")
            return check
        }
        // Exactly one whole frame, as the browser would read it, and nothing after it.
        var decoder = FrameDecoder(maximumLength: ProtocolLimits.maxReplyBytes)
        decoder.feed(result.stdout)
        let first = decoder.nextEvent()
        guard case .frame(let body)? = first, decoder.nextEvent() == nil, decoder.isAtFrameBoundary,
            let reply = try? JSONParser.parse(body)
        else {
            check.detail =
                "the host's stdout is not exactly one frame: something else writes to it (exit \(result.status))"
            check.fix = hostFix(hostPath, installCommand: check.fix ?? command(installing: nil))
            return check
        }
        if reply["code"]?.stringValue == BridgeErrorCode.callerNotAllowed.rawValue {
            check.detail = "the host refuses \(caller): its configuration beside \(hostPath) does not allow it"
            return check
        }
        guard reply["status"]?.stringValue == "success", reply["id"]?.stringValue == "doctor" else {
            check.detail = "hello failed: \(JSONWriter.string(reply))"
            return check
        }
        check.status = .ok
        check.fix = nil
        check.detail =
            "host \(reply["hostVersion"]?.stringValue ?? "?") answered hello in \(elapsed) ms "
            + "(protocol \(reply["protocolVersion"]?.intValue ?? 0), group \(reply["group"]?.stringValue ?? "?"))"
        return comparedWithProject(check, reply: reply)
    }

    /// The check failed because the host, or the configuration it reads, is in a place others can
    /// write to; nil when both may be run. Run only what nobody else could have put there (the
    /// browser would run it too: say so).
    func untrustedHost(_ check: DoctorCheck, hostPath: String) -> DoctorCheck? {
        var check = check
        if let refusal = PathTrust.refusal(hostPath, userID: userID) {
            check.detail =
                "did not run the host \(hostPath): \(refusal); anyone who can write there can replace the "
                + "program the browser runs with your rights"
            check.fix = refusal.fix ?? "move the host into a folder of your own and install again"
            return check
        }
        if let refusal = configurationRefusal(hostPath: hostPath) {
            check.detail =
                "the host's configuration \(refusal.path) is not to be trusted: \(refusal); anyone who can write "
                + "there chooses which extensions the host serves and which group they reach"
            check.fix = refusal.fix ?? "move the host into a folder of your own and install again"
            return check
        }
        return nil
    }

    /// A passing hello check, downgraded to a warning when the installed host's actions are not
    /// those of the project's newest build (or when that build could not be asked).
    func comparedWithProject(_ check: DoctorCheck, reply: JSONValue) -> DoctorCheck {
        var check = check
        let installed = (reply["actions"]?.arrayValue ?? []).compactMap(\.stringValue).sorted()
        if case .notRun(let program, let refusal) = projectActions {
            check.status = .warning
            check.detail +=
                "; not compared with your newest build: did not run \(program) --actions, because \(refusal) "
                + "(anyone who can write there could have put their own program in its place)"
            check.fix = refusal.fix ?? "move the project into a folder of your own"
        }
        if case .listed(let expected) = projectActions, installed != expected {
            let missing = expected.filter { !installed.contains($0) }
            let extra = installed.filter { !expected.contains($0) }
            check.status = .warning
            check.detail +=
                "; but it is not your newest build: it "
                + (missing.isEmpty ? "" : "lacks \(missing.joined(separator: ", "))")
                + (missing.isEmpty || extra.isEmpty ? "" : " and ")
                + (extra.isEmpty ? "" : "still has \(extra.joined(separator: ", "))")
            check.fix = (reinstallCommand ?? tool + " install") + "   (install the newest build)"
        }
        return check
    }
}
