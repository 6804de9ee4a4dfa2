import BridgeJSON
import Foundation
import TestSupport
import Testing

/// `extension-bridge install | doctor | uninstall` on a fresh HOME, with the
/// binaries copied to a stable folder as install.sh does.
@Suite struct InstallDoctorTests {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// An empty HOME; browsers are looked for under a root of our own (EXTENSION_BRIDGE_DETECT_ROOT)
    /// that holds only a Chromium executable, as a fresh machine with Chromium installed would.
    /// The binaries' folder is on PATH, as ~/.local/bin is once install.sh's note is followed.
    struct Setup {
        let tmp = TemporaryFolder()
        var bin: String { tmp.path + "/bin" }
        var home: String { tmp.path + "/home" }
        var root: String { tmp.path + "/root" }
        var env: [String: String] {
            [
                "HOME": home, "EXTENSION_BRIDGE_CONTAINER": tmp.path + "/c", "PATH": bin + ":/usr/bin:/bin",
                "EXTENSION_BRIDGE_DETECT_ROOT": root,
            ]
        }

        init() throws {
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/usr/bin", withIntermediateDirectories: true)
            try "#!/bin/sh\n".write(toFile: root + "/usr/bin/chromium", atomically: true, encoding: .utf8)
            chmod(root + "/usr/bin/chromium", 0o755)
            for tool in ["extension-bridge", "extension-bridge-host"] {
                try FileManager.default.copyItem(atPath: Binaries.folder + "/" + tool, toPath: bin + "/" + tool)
            }
        }

        func cli(_ args: String...) throws -> Finished {
            try runProcess(bin + "/extension-bridge", args, environment: env)
        }

        func cli(environment: [String: String], _ args: String...) throws -> Finished {
            try runProcess(bin + "/extension-bridge", args, environment: environment)
        }
    }

    @Test func emptyHome_installedButNeverStartedBrowsers_areRegistered_andDoctorAgrees() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        // The real machine: whatever browsers are installed here, found by executable alone.
        var env = s.env
        env["EXTENSION_BRIDGE_DETECT_ROOT"] = nil
        let present = [
            ("chromium", ["/usr/bin/chromium", "/usr/lib/chromium/chromium"]),
            ("firefox", ["/usr/bin/firefox", "/usr/bin/firefox-esr"]),
        ].filter { $0.1.contains { FileManager.default.isExecutableFile(atPath: $0) } }.map(\.0)
        let install = try s.cli(environment: env, "install", "--extension-dir", repository + "/extension")
        if present.isEmpty {
            #expect(install.status == 66)
            #expect(install.stderr.contains("no browser found"))
            return
        }
        #expect(install.status == 0, "\(install.stderr)")
        let folders = [
            "chromium": "/.config/chromium/NativeMessagingHosts/", "firefox": "/.mozilla/native-messaging-hosts/",
        ]
        for browser in present {
            #expect(install.outText.contains("written   " + s.home + (folders[browser] ?? "?")))
        }
        let doctor = try s.cli(environment: env, "doctor", "--extension-dir", repository + "/extension", "--json")
        #expect(doctor.status == 0, "\(doctor.outText)")
        // doctor looks at exactly the browsers install registered (rows of no browser, "-", aside).
        let checks = (try JSONParser.parse(doctor.stdout)["checks"]?.arrayValue ?? []).filter { $0["browser"] != "-" }
        let used = checks.filter { $0["inUse"] == true }
        #expect(
            Set(checks.compactMap { $0["browser"]?.stringValue }) == Set(used.compactMap { $0["browser"]?.stringValue })
        )
        #expect(used.count == install.outText.split(separator: "\n").count - 1)
        for browser in present {
            #expect(used.contains { $0["browser"]?.stringValue == browser && $0["status"] == "ok" })
        }
    }

    /// No browser: install names the one command that finishes the job (the host and the extension),
    /// and that command, pasted once a browser is there, does; doctor still diagnoses what it can.
    @Test func noBrowserAtAll_installSaysWhatToDo_andDoctorStillChecks() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        try FileManager.default.removeItem(atPath: s.root + "/usr/bin/chromium")
        // install.sh's layout: the extension beside bin/, found without --extension-dir.
        try FileManager.default.createDirectory(
            atPath: s.tmp.path + "/share/extension-bridge", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: repository + "/extension", toPath: s.tmp.path + "/share/extension-bridge/extension")
        let install = try s.cli("install")
        #expect(install.status == 66)
        #expect(install.stderr.contains("no browser found"))
        #expect(install.stderr.contains("`extension-bridge install --crx --browser chromium`"))
        #expect(!install.stderr.contains("next start,"))
        // --help (and the man page, from the same declaration) names the same command.
        let help = try s.cli("install", "--help").outText.replacingOccurrences(of: "\n", with: " ")
        #expect(help.contains("install a browser, then run `extension-bridge install --crx`"), "\(help)")
        let doctor = try s.cli("doctor")
        #expect(doctor.status == 1, "\(doctor.outText)")
        #expect(doctor.outText.contains("error    no browser found"))
        #expect(doctor.outText.contains("-: install a browser, then run: extension-bridge install --crx\n"))
        #expect(doctor.outText.contains(s.bin + "/extension-bridge-host: not registered with any browser yet"))
        #expect(doctor.outText.contains("  secrets  "), "\(doctor.outText)")
        #expect(!doctor.outText.contains("Everything checks out."))
        // A browser arrives; the command doctor and install named, pasted, installs the extension too.
        try "#!/bin/sh\n".write(toFile: s.root + "/usr/bin/chromium", atomically: true, encoding: .utf8)
        chmod(s.root + "/usr/bin/chromium", 0o755)
        var env = s.env
        env["PATH"] = s.bin + ":/usr/bin:/bin"
        let pasted = try runProcess("/bin/sh", ["-c", "extension-bridge install --crx"], environment: env)
        #expect(pasted.status == 0, "\(pasted.stderr)")
        let external =
            (try? FileManager.default.contentsOfDirectory(atPath: s.home + "/.config/chromium/External Extensions"))
            ?? []
        #expect(external.count == 1)
        #expect(pasted.stderr.contains("Chromium: the extension (id " + (external.first?.dropLast(5) ?? "?")))
    }

    /// The host install registered, with every manifest gone and no browser: doctor still starts it.
    @Test func noBrowser_butAnInstalledHost_doctorSaysItAnswersHello() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        #expect(try s.cli("install", "--extension-dir", repository + "/extension").status == 0)
        try FileManager.default.removeItem(atPath: s.home + "/.config/chromium")
        try FileManager.default.removeItem(atPath: s.root + "/usr/bin/chromium")
        let doctor = try s.cli("doctor", "--extension-dir", repository + "/extension")
        #expect(doctor.status == 1, "\(doctor.outText)")
        #expect(doctor.outText.contains("ok       " + s.bin + "/extension-bridge-host: host "))
        #expect(doctor.outText.contains("answered hello"))
    }

    /// Chromium installed, never started: no profile, so doctor cannot see the extension. A warning
    /// (exit 0) that says to start it once, never "Everything checks out."; once a profile exists
    /// without the extension, the fix is the installed CLI's `install --crx`, not a package.
    @Test func beforeTheBrowsersFirstStart_doctorWarns_andItsFixesAreCommandsTheUserHas() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let install = try s.cli("install", "--crx", "--extension-dir", repository + "/extension")
        #expect(install.status == 0, "\(install.stderr)")
        let doctor = try s.cli("doctor", "--extension-dir", repository + "/extension")
        #expect(doctor.status == 0, "\(doctor.outText)")
        #expect(doctor.outText.contains("warning  " + s.home + "/.config/chromium: no Chromium profile yet"))
        #expect(doctor.outText.contains("chromium: start Chromium once, then run `extension-bridge doctor` again"))
        #expect(!doctor.outText.contains("Everything checks out."))
        #expect(doctor.outText.contains("\nNo errors, "), "\(doctor.outText)")
        // A first start made a profile without the extension (the user removed the External Extensions file).
        try FileManager.default.createDirectory(
            atPath: s.home + "/.config/chromium/Default", withIntermediateDirectories: true)
        try "{}".write(toFile: s.home + "/.config/chromium/Default/Preferences", atomically: true, encoding: .utf8)
        let external = s.home + "/.config/chromium/External Extensions"
        for name in try FileManager.default.contentsOfDirectory(atPath: external) {
            try FileManager.default.removeItem(atPath: external + "/" + name)
        }
        let missing = try s.cli("doctor", "--extension-dir", repository + "/extension")
        #expect(missing.status == 0, "\(missing.outText)")
        #expect(missing.outText.contains("chromium: install it: extension-bridge install --crx --browser chromium"))
        #expect(!missing.outText.contains(".deb") && !missing.outText.contains("scripts/install.sh"))
        // The fix, pasted, writes the file Chromium installs it from.
        var env = s.env
        env["PATH"] = s.bin + ":/usr/bin:/bin"
        let pasted = try runProcess(
            "/bin/sh",
            ["-c", "extension-bridge install --crx --browser chromium --extension-dir '\(repository)/extension'"],
            environment: env)
        #expect(pasted.status == 0, "\(pasted.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: external).count == 1)
    }

    /// Right after scripts/install.sh when ~/.local/bin is not on PATH: a bare `extension-bridge` in a
    /// fix line is "command not found", so doctor names itself by its path, and that line, pasted, runs.
    @Test func withoutTheToolOnPATH_doctorsFixesNameItByItsPath_andRunAsPasted() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        var env = s.env
        env["PATH"] = "/usr/bin:/bin"
        let doctor = try s.cli(environment: env, "doctor", "--extension-dir", repository + "/extension")
        #expect(doctor.status == 1, "\(doctor.outText)")
        let tool = s.bin + "/extension-bridge"
        #expect(doctor.outText.contains("chromium: \(tool) install --browser chromium\n"), "\(doctor.outText)")
        #expect(!doctor.outText.contains(": extension-bridge "), "\(doctor.outText)")
        let pasted = try runProcess(
            "/bin/sh", ["-c", "\(tool) install --browser chromium --extension-dir '\(repository)/extension'"],
            environment: env)
        #expect(pasted.status == 0, "\(pasted.stderr)")
        let fixed = try s.cli(environment: env, "doctor", "--extension-dir", repository + "/extension")
        #expect(fixed.outText.contains("start Chromium once, then run `\(tool) doctor` again"), "\(fixed.outText)")
        // Another extension-bridge first on PATH is not this one: the path still.
        try FileManager.default.createDirectory(atPath: s.tmp.path + "/other", withIntermediateDirectories: true)
        try "#!/bin/sh\nexit 0\n".write(
            toFile: s.tmp.path + "/other/extension-bridge", atomically: true, encoding: .utf8)
        chmod(s.tmp.path + "/other/extension-bridge", 0o755)
        env["PATH"] = s.tmp.path + "/other:" + s.bin + ":/usr/bin:/bin"
        let shadowed = try s.cli(environment: env, "doctor", "--extension-dir", repository + "/extension")
        #expect(shadowed.outText.contains("then run `\(tool) doctor` again"), "\(shadowed.outText)")
    }

    /// install's closing line names doctor the way doctor's fix lines name it: the bare name only
    /// when `extension-bridge` on PATH is this program, else its path, so the line runs as printed.
    @Test func installsClosingLine_namesThisProgramAsDoctorsFixesDo() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        var env = s.env
        env["PATH"] = "/usr/bin:/bin"
        let install = try s.cli(environment: env, "install", "--extension-dir", repository + "/extension")
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stderr.contains("check with `\(s.bin)/extension-bridge doctor`"), "\(install.stderr)")
        try FileManager.default.removeItem(atPath: s.home + "/.config")
        let onPath = try s.cli("install", "--extension-dir", repository + "/extension")
        #expect(onPath.stderr.contains("check with `extension-bridge doctor`"), "\(onPath.stderr)")
    }

    /// A tool built but not installed, run outside its checkout, has no extension folder to read the
    /// ids from: doctor still runs every check and reports the folder as a row, never a bare exit 66.
    @Test func doctorWithoutTheExtensionFolder_runsEveryCheck_andSaysSo() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let run = "cd '\(s.tmp.path)' && '\(s.bin)/extension-bridge' doctor"
        let before = try runProcess("/bin/sh", ["-c", run], environment: s.env)
        #expect(before.status == 1, "\(before.stderr)")
        #expect(before.outText.contains("extension  error"), "\(before.outText)")
        #expect(before.outText.contains("doctor --extension-dir DIR`"), "\(before.outText)")
        #expect(before.outText.contains("chromium"), "\(before.outText)")
        #expect(before.outText.contains("  secrets  "), "\(before.outText)")
        // Once install recorded the ids, the manifests are checked against them: a warning only.
        let install = try s.cli("install", "--extension-dir", repository + "/extension")
        #expect(install.status == 0, "\(install.stderr)")
        let after = try runProcess("/bin/sh", ["-c", run], environment: s.env)
        #expect(after.status == 0, "\(after.outText)")
        #expect(after.outText.contains("extension  warning"), "\(after.outText)")
        #expect(after.outText.contains("answered hello"), "\(after.outText)")
    }

    /// `uninstall --dry-run` lists what uninstall would remove and removes nothing.
    @Test func uninstallDryRun_saysWhatWouldGo_andRemovesNothing() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let install = try s.cli("install", "--extension-dir", repository + "/extension")
        #expect(install.status == 0, "\(install.stderr)")
        let manifest = s.home + "/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json"
        let dry = try s.cli("uninstall", "--dry-run")
        #expect(dry.status == 0, "\(dry.stderr)")
        #expect(dry.outText.contains("would remove \(manifest)\n"), "\(dry.outText)")
        #expect(FileManager.default.fileExists(atPath: manifest))
        let real = try s.cli("uninstall")
        #expect(real.outText.contains("removed   \(manifest)"), "\(real.outText)")
        #expect(!FileManager.default.fileExists(atPath: manifest))
    }

    /// The key install --crx made, which install said to keep: uninstall keeps it and says so, or
    /// with --remove-key removes it and says what that costs (a new id next time); install's own
    /// line about the key says the same.
    @Test func uninstall_keepsTheKeyInstallMade_orRemovesIt_sayingWhatThatMeans() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let key = s.home + "/.local/share/extension-bridge/keys/extension-bridge.pem"
        let install = try s.cli("install", "--crx", "--extension-dir", repository + "/extension")
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stderr.contains("keep it and back it up"), "\(install.stderr)")
        #expect(install.stderr.contains("(uninstall keeps it; uninstall --remove-key removes it)"), "\(install.stderr)")
        let dry = try s.cli("uninstall", "--dry-run", "--remove-key")
        #expect(dry.outText.contains("would remove \(key)\n"), "\(dry.outText)")
        #expect(dry.stderr.contains("would remove the signing key \(key)"), "\(dry.stderr)")
        #expect(!(try s.cli("uninstall", "--dry-run").outText.contains(key)))
        let kept = try s.cli("uninstall")
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(FileManager.default.fileExists(atPath: key))
        #expect(kept.stderr.contains("kept the signing key \(key) install made"), "\(kept.stderr)")
        try FileManager.default.removeItem(atPath: key)
        _ = try s.cli("install", "--crx", "--extension-dir", repository + "/extension")
        // A key a reinstall reused is in no receipt: --remove-key leaves it and says why and how.
        _ = try s.cli("install", "--crx", "--extension-dir", repository + "/extension")
        #expect(try s.cli("uninstall").status == 0)
        _ = try s.cli("install", "--crx", "--extension-dir", repository + "/extension")
        let unrecorded = try s.cli("uninstall", "--remove-key")
        #expect(unrecorded.status == 0 && FileManager.default.fileExists(atPath: key))
        #expect(
            unrecorded.stderr.contains("kept the signing key \(key): no install receipt lists it"),
            "\(unrecorded.stderr)")
        #expect(unrecorded.stderr.contains("delete it: rm " + key))
        try FileManager.default.removeItem(atPath: key)
        _ = try s.cli("install", "--crx", "--extension-dir", repository + "/extension")
        let removed = try s.cli("uninstall", "--remove-key")
        #expect(!FileManager.default.fileExists(atPath: key))
        #expect(
            removed.stderr.contains(
                "removed the signing key \(key) that install made: the next install --crx or pack makes a new key, so "
                    + "the extension gets a new Chromium id"), "\(removed.stderr)")
    }

    @Test func install_detectsBrowsers_isIdempotent_andDoctorTalksToTheHost() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let first = try s.cli("install", "--extension-dir", repository + "/extension")
        #expect(first.status == 0, "\(first.stderr)")
        // Only Chromium's executable exists (no profile folder): detected means Chromium alone.
        #expect(first.outText.split(separator: "\n").count == 2)
        #expect(first.outText.contains(s.home + "/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json"))
        let second = try s.cli("install", "--extension-dir", repository + "/extension")
        #expect(second.outText.split(separator: "\n").allSatisfy { $0.hasPrefix("unchanged") })
        #expect(second.stderr.contains("nothing changed"))
        let doctor = try s.cli("doctor", "--extension-dir", repository + "/extension")
        #expect(doctor.status == 0, "\(doctor.outText)")
        #expect(doctor.outText.contains("answered hello"))
    }

    @Test func doctor_reportsAWrongAllowedIdAndAMissingHost_withFixes() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        #expect(
            try s.cli("install", "--browser", "chromium,firefox", "--extension-dir", repository + "/extension").status
                == 0)
        let manifest = s.home + "/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json"
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: "honlgoealnaplikdeeidpcknncfcnfmo", with: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let firefox = s.home + "/.mozilla/native-messaging-hosts/org.extensionbridge.host.json"
        try String(contentsOfFile: firefox, encoding: .utf8).replacingOccurrences(of: s.bin, with: s.tmp.path + "/gone")
            .write(toFile: firefox, atomically: true, encoding: .utf8)
        let doctor = try s.cli("doctor", "--extension-dir", repository + "/extension", "--json")
        #expect(doctor.status == 1)
        let report = try JSONParser.parse(doctor.stdout)
        #expect(report["ok"] == false)
        let errors = (report["checks"]?.arrayValue ?? []).filter { $0["status"] == "error" }
        #expect(
            errors.contains {
                $0["browser"] == "chromium" && ($0["detail"]?.stringValue ?? "").contains("does not include")
            })
        #expect(
            errors.contains {
                $0["browser"] == "firefox" && ($0["detail"]?.stringValue ?? "").contains("not executable")
            })
        #expect(errors.allSatisfy { $0["fix"] != .null })
        // The fix is the installed CLI (it points the manifest at the host beside it), not a
        // repository script the user may not have.
        #expect(
            errors.contains {
                $0["browser"] == "firefox" && $0["fix"] == "extension-bridge install --browser firefox"
            })
    }

    @Test func doctor_reportsARefusingAllowlist() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        #expect(try s.cli("install", "--browser", "chromium", "--extension-dir", repository + "/extension").status == 0)
        try "# emptied\n".write(toFile: s.bin + "/extension-bridge-host.conf", atomically: true, encoding: .utf8)
        let doctor = try s.cli("doctor", "--browser", "chromium", "--extension-dir", repository + "/extension")
        #expect(doctor.status == 1)
        #expect(doctor.outText.contains("the host refuses chrome-extension://honlgoealnaplikdeeidpcknncfcnfmo/"))
        #expect(doctor.outText.contains("extension-bridge install --browser chromium"))
    }

    /// A bridge made by `new`, installed with `--config`: doctor's fix lines name
    /// that bridge.json (quoted for the shell), also when doctor finds the
    /// bridge by its receipt, so pasting a fix repairs that bridge, not the built-in one.
    @Test func doctor_fixLinesOfAConfigBridge_nameItsBridgeJSON() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let project = s.tmp.path + "/my project's bridge"
        try FileManager.default.createDirectory(atPath: project + "/.build/release", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: s.bin + "/extension-bridge-host", toPath: project + "/.build/release/a-host")
        let description: JSONValue = [
            "formatVersion": 1, "name": "A", "hostName": "com.example.a", "group": "group.a", "hostProduct": "a-host",
            "version": "1.0",
            "extension": [
                "folder": "extension", "chromiumID": .string(String(repeating: "c", count: 32)),
                "firefoxID": "a@example.com",
            ],
        ]
        try Data(JSONWriter.bytes(description)).write(to: URL(fileURLWithPath: project + "/bridge.json"))
        let install = try s.cli("install", "--config", project + "/bridge.json", "--browser", "chromium")
        #expect(install.status == 0, "\(install.stderr)")
        let manifest = s.home + "/.config/chromium/NativeMessagingHosts/com.example.a.json"
        #expect(FileManager.default.fileExists(atPath: manifest))
        try FileManager.default.removeItem(atPath: manifest)
        let quoted = "'" + s.tmp.path + "/my project'\\''s bridge/bridge.json'"
        for args in [
            ["doctor", "--browser", "chromium", "--json"],
            ["doctor", "--config", project + "/bridge.json", "--browser", "chromium", "--json"],
        ] {
            let doctor = try runProcess(s.bin + "/extension-bridge", args, environment: s.env)
            #expect(doctor.status == 1)
            let checks = try JSONParser.parse(doctor.stdout)["checks"]?.arrayValue ?? []
            let fixes = checks.filter { ($0["path"]?.stringValue ?? "").hasSuffix("com.example.a.json") }
                .compactMap { $0["fix"]?.stringValue }
            #expect(fixes == ["extension-bridge install --browser chromium --config " + quoted], "\(args): \(fixes)")
        }
        // Pasted into a shell, the fix repairs that bridge.
        let fix = "extension-bridge install --browser chromium --config " + quoted
        var env = s.env
        env["PATH"] = s.bin + ":/usr/bin:/bin"
        let pasted = try runProcess("/bin/sh", ["-c", fix], environment: env)
        #expect(pasted.status == 0, "\(pasted.stderr)")
        #expect(FileManager.default.fileExists(atPath: manifest))
    }

    /// A project made by `new` that has no build yet: `install --config` and `pack --deb` say to run
    /// the project's own script, which builds the host first, and doctor's fix line is that script
    /// (`install --config` alone would fail). Pasted, the fix runs it with the browser's options.
    @Test func aProjectWithoutABuild_isFixedByItsOwnScripts() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let project = s.tmp.path + "/Read Later"
        let config = try writeBridge(s, project)
        guard
            case .object(var members) = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: config))))
        else { throw StrayBytes(offset: 0) }
        members["maintainer"] = "A maintainers <maintainers@example.com>"
        try Data(JSONWriter.bytes(.object(members))).write(to: URL(fileURLWithPath: config))
        try FileManager.default.removeItem(atPath: project + "/.build")
        try FileManager.default.createDirectory(atPath: project + "/scripts", withIntermediateDirectories: true)
        // Stands in for the generated script (which builds, then installs): records how it was run.
        for script in ["install.sh", "package-deb.sh"] {
            try "#!/bin/sh\necho \"$(pwd) $0 $*\" > \"$HOME/ran\"\n".write(
                toFile: project + "/scripts/" + script, atomically: true, encoding: .utf8)
            chmod(project + "/scripts/" + script, 0o755)
        }
        let quoted = "'" + project + "'"
        let install = try s.cli("install", "--config", config, "--browser", "chromium")
        #expect(install.status == 66, "\(install.stderr)")
        #expect(install.stderr.contains("no built host a-host in \(project)/.build/release or .build/debug"))
        #expect(install.stderr.contains("run `cd \(quoted) && scripts/install.sh`, which builds it first"))
        let pack = try s.cli("pack", "--deb", "--config", config, "--out", s.tmp.path + "/dist")
        #expect(pack.stderr.contains("run `cd \(quoted) && scripts/package-deb.sh`, which builds it first"))
        let doctor = try runProcess(
            s.bin + "/extension-bridge", ["doctor", "--config", config, "--browser", "chromium", "--json"],
            environment: s.env)
        let fixes = (try JSONParser.parse(doctor.stdout)["checks"]?.arrayValue ?? []).compactMap {
            $0["fix"]?.stringValue
        }
        let fix = "cd \(quoted) && scripts/install.sh --browser chromium"
        #expect(fixes.contains(fix), "\(fixes)")
        let pasted = try runProcess("/bin/sh", ["-c", fix], environment: s.env)
        #expect(pasted.status == 0, "\(pasted.stderr)")
        let ran = try String(contentsOfFile: s.home + "/ran", encoding: .utf8)
        #expect(ran == "\(project) scripts/install.sh --browser chromium\n")
    }

    /// `install --config` takes the newer of the project's builds and says so; `doctor
    /// --config` compares the installed host's `hello` actions with the newest build's (`--actions`).
    @Test func config_newestBuildWins_andDoctorNamesAStaleInstalledHost() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let project = s.tmp.path + "/project"
        let config = try writeBridge(s, project)
        // A newer debug build that knows one more action (a script standing in for the app's host).
        try FileManager.default.createDirectory(atPath: project + "/.build/debug", withIntermediateDirectories: true)
        let builtIns = try runProcess(s.bin + "/extension-bridge-host", ["--actions"], environment: s.env).outText
        #expect(builtIns.contains("getSettings\n") && builtIns.contains("hello\n"), "\(builtIns)")
        let newer = project + "/.build/debug/a-host"
        try "#!/bin/sh\n[ \"$1\" = --actions ] && printf '%s' '\(builtIns)appInfo\n'\n".write(
            toFile: newer, atomically: true, encoding: .utf8)
        chmod(newer, 0o755)
        // Installing names the newer build (the script), and which one it passed over.
        let picked = try s.cli("install", "--config", config, "--browser", "chromium", "--dry-run")
        #expect(picked.stderr.contains("using the newer host build \(newer)"), "\(picked.stderr)")
        // Install the real host (older build), then doctor sees the newer build knows appInfo.
        let install = try s.cli(
            "install", "--config", config, "--browser", "chromium", "--host-path", project + "/.build/release/a-host")
        #expect(install.status == 0, "\(install.stderr)")
        let doctor = try s.cli("doctor", "--config", config, "--browser", "chromium")
        #expect(doctor.outText.contains("not your newest build: it lacks appInfo"), "\(doctor.outText)")
        #expect(doctor.outText.contains("extension-bridge install --config"), "\(doctor.outText)")
        // With the same actions, no warning.
        try "#!/bin/sh\n[ \"$1\" = --actions ] && printf '%s' '\(builtIns)'\n".write(
            toFile: newer, atomically: true, encoding: .utf8)
        let same = try s.cli("doctor", "--config", config, "--browser", "chromium")
        #expect(!same.outText.contains("not your newest build"), "\(same.outText)")
    }

    /// After `install --config`, a project folder made writable by every user and its newest build
    /// replaced by a script: plain `doctor` does not run it (before, it ran it for `--actions`) and
    /// says why; an installed host in such a folder is not run either.
    @Test func doctor_runsNothingFromAFolderOthersCanWrite_andSaysWhy() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let project = s.tmp.path + "/project"
        let config = try writeBridge(s, project)
        #expect(try s.cli("install", "--config", config, "--browser", "chromium").status == 0)
        let mark = s.tmp.path + "/ran"
        try FileManager.default.createDirectory(atPath: project + "/.build/debug", withIntermediateDirectories: true)
        try "#!/bin/sh\ntouch '\(mark)'\necho hello\n".write(
            toFile: project + "/.build/debug/a-host", atomically: true, encoding: .utf8)
        chmod(project + "/.build/debug/a-host", 0o755)
        chmod(project, 0o777)
        let doctor = try s.cli("doctor", "--extension-dir", repository + "/extension")
        #expect(!FileManager.default.fileExists(atPath: mark), "doctor ran a program others could have put there")
        #expect(
            doctor.outText.contains(
                "did not run \(project)/.build/debug/a-host --actions, because \(project) is writable by every user"),
            "\(doctor.outText)")
        #expect(doctor.outText.contains("chmod go-w \(project)\n"), "\(doctor.outText)")

        // The host a manifest names, in a folder others can write: not run either.
        let host = s.tmp.path + "/open/extension-bridge-host"
        try FileManager.default.createDirectory(atPath: s.tmp.path + "/open", withIntermediateDirectories: true)
        try "#!/bin/sh\ntouch '\(mark)'\n".write(toFile: host, atomically: true, encoding: .utf8)
        chmod(host, 0o755)
        // Installed while the folder was the user's own (install refuses to write into one others can
        // write), opened to everyone afterwards.
        #expect(
            try s.cli(
                "install", "--browser", "chromium", "--host-path", host, "--extension-dir", repository + "/extension"
            )
            .status == 0)
        chmod(s.tmp.path + "/open", 0o777)
        let builtIn = try s.cli("doctor", "--browser", "chromium", "--extension-dir", repository + "/extension")
        #expect(builtIn.status == 1)
        #expect(
            builtIn.outText.contains("did not run the host \(host): \(s.tmp.path)/open is writable by every user"),
            "\(builtIn.outText)")
        #expect(!FileManager.default.fileExists(atPath: mark), "doctor ran a host others could have put there")

        // A manifest others can write names the program: not followed either.
        let shared = s.tmp.path + "/shared-profile"
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
        #expect(
            try s.cli("install", "--user-data-dir", shared, "--extension-dir", repository + "/extension").status == 0)
        chmod(shared + "/NativeMessagingHosts", 0o777)
        let profile = try s.cli("doctor", "--user-data-dir", shared, "--extension-dir", repository + "/extension")
        #expect(
            profile.outText.contains(
                "did not run the host it names: \(shared)/NativeMessagingHosts is writable by every user"),
            "\(profile.outText)")
    }

    /// A host `install` finds by itself (a project's newest build, the host beside the CLI) in a
    /// folder others can write is refused (77) naming why, nothing written: the browser would run it
    /// as the user. `--host-path` is the person's own choice.
    @Test func install_refusesAFoundHostOthersCouldHavePutThere() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let project = s.tmp.path + "/project"
        let config = try writeBridge(s, project)
        chmod(project + "/.build", 0o777)
        for args in [["install", "--config", config, "--browser", "chromium"], ["pack", "--deb", "--config", config]] {
            let run = try runProcess(s.bin + "/extension-bridge", args, environment: s.env)
            #expect(run.status == 77, "\(args): \(run.stderr)")
            #expect(
                run.stderr.contains(
                    "refusing the project's newest host build \(project)/.build/release/a-host: "
                        + "\(project)/.build is writable by every user"), "\(run.stderr)")
            #expect(run.stderr.contains("run chmod go-w \(project)/.build, or"), "\(run.stderr)")
        }
        chmod(project + "/.build", 0o755)
        chmod(s.bin, 0o777)
        let builtIn = try s.cli("install", "--browser", "chromium", "--extension-dir", repository + "/extension")
        #expect(builtIn.status == 77, "\(builtIn.stderr)")
        #expect(builtIn.stderr.contains("refusing the host beside this binary"), "\(builtIn.stderr)")
        chmod(s.bin, 0o755)
        #expect(files(under: s.home) == [], "nothing written: \(files(under: s.home) ?? [])")
        #expect(!FileManager.default.fileExists(atPath: s.tmp.path + "/dist"))
    }

    /// The fix doctor prints for a profile whose folder holds a quote is one shell word: pasted, it
    /// installs into that folder (it broke out of its quotes before).
    @Test func doctor_fixForAProfileWithAQuote_isOneShellWord() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let profile = s.tmp.path + "/it's $(touch pwned) here"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
        let doctor = try s.cli(
            "doctor", "--user-data-dir", profile, "--extension-dir", repository + "/extension", "--json")
        let fix = try #require(
            (try JSONParser.parse(doctor.stdout))["checks"]?.arrayValue?.compactMap { $0["fix"]?.stringValue }.first {
                $0.contains("--user-data-dir")
            })
        let pasted = try runProcess(
            "/bin/sh",
            [
                "-c",
                "cd \"$0\" && \(fix.replacingOccurrences(of: "extension-bridge ", with: "\"$1\"/extension-bridge ")) --extension-dir \"$2\"",
                s.tmp.path, s.bin, repository + "/extension",
            ],
            environment: s.env)
        #expect(pasted.status == 0, "\(fix): \(pasted.stderr)")
        #expect(FileManager.default.fileExists(atPath: profile + "/NativeMessagingHosts/org.extensionbridge.host.json"))
        #expect(!FileManager.default.fileExists(atPath: s.tmp.path + "/pwned"))
    }

    /// A generated bridge's description in `folder`, with a built host beside it.
    func writeBridge(
        _ s: Setup, _ folder: String, hostName: String = "com.example.a", group: String = "group.a",
        firefoxID: String = "a@example.com"
    ) throws -> String {
        try FileManager.default.createDirectory(atPath: folder + "/.build/release", withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: folder + "/.build/release/a-host") {
            try FileManager.default.copyItem(
                atPath: s.bin + "/extension-bridge-host", toPath: folder + "/.build/release/a-host")
        }
        let description: JSONValue = [
            "formatVersion": 1, "name": "Alpha", "hostName": .string(hostName), "group": .string(group),
            "hostProduct": "a-host", "version": "1.0", "maintainer": "A <a@example.com>",
            "extension": [
                "folder": "extension", "chromiumID": .string(String(repeating: "c", count: 32)),
                "firefoxID": .string(firefoxID),
            ],
        ]
        try Data(JSONWriter.bytes(description)).write(to: URL(fileURLWithPath: folder + "/bridge.json"))
        return folder + "/bridge.json"
    }

    /// Every file under `folder`, recursively.
    func files(under folder: String) -> [String]? {
        FileManager.default.enumerator(atPath: folder)?.allObjects.compactMap { $0 as? String }.sorted()
    }

    /// Line breaks in bridge.json's `group` or `firefoxID`
    /// (or in `--extension-id`, `--suite`) added `allow` lines to the host's `.conf`.
    @Test func installConfig_valuesWithLineBreaks_areRefused_andNothingIsWritten() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let evil = "\nallow = chrome-extension://eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee/"
        for (group, firefoxID) in [("group.a" + evil, "a@example.com"), ("group.a", "a@example.com" + evil)] {
            let config = try writeBridge(s, s.tmp.path + "/project", group: group, firefoxID: firefoxID)
            let install = try s.cli("install", "--config", config, "--browser", "chromium,firefox")
            #expect(install.status == 65, "\(install.stderr)")
            #expect(install.stderr.contains("\\u{a}allow"), "the message shows the break escaped: \(install.stderr)")
        }
        let config = try writeBridge(s, s.tmp.path + "/project")
        let badID = try s.cli("install", "--config", config, "--browser", "firefox", "--extension-id", "x@y" + evil)
        #expect(badID.status == 65, "\(badID.stderr)")
        let badSuite = try s.cli("install", "--config", config, "--browser", "chromium", "--suite", "-x")
        #expect(badSuite.status == 64, "\(badSuite.stderr)")
        let builtInBadID = try s.cli(
            "install", "--extension-dir", repository + "/extension", "--extension-id", "x@y" + evil)
        #expect(builtInBadID.status == 65, "\(builtInBadID.stderr)")
        #expect(files(under: s.home) == [], "nothing written: \(files(under: s.home) ?? [])")
        #expect(!FileManager.default.fileExists(atPath: s.bin + "/extension-bridge-host.conf"))
    }

    /// A bridge.json naming the built-in host took over
    /// the built-in bridge, and `uninstall --config` removed its files.
    @Test func configNamingTheBuiltInHost_isRefused_andTheBuiltInBridgeStays() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let install = try s.cli("install", "--extension-dir", repository + "/extension", "--browser", "chromium")
        #expect(install.status == 0, "\(install.stderr)")
        let manifest = s.home + "/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json"
        let conf = s.bin + "/extension-bridge-host.conf"
        let before = try [manifest, conf].map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let config = try writeBridge(s, s.tmp.path + "/project", hostName: "org.extensionbridge.host")
        for verb in ["install", "uninstall", "doctor"] {
            let run = try s.cli(verb, "--config", config, "--browser", "chromium")
            #expect(run.status == 65, "\(verb): \(run.stderr)")
            #expect(run.stderr.contains("is the built-in bridge's"), "\(verb): \(run.stderr)")
        }
        #expect(try [manifest, conf].map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
        #expect(!FileManager.default.fileExists(atPath: s.home + "/.local/share/extension-bridge/hosts"))
    }

    /// The files install would write, from `--dry-run --json`: path → content.
    func dryRun(_ s: Setup, _ args: [String]) throws -> [String: String] {
        let run = try runProcess(
            s.bin + "/extension-bridge", ["install", "--dry-run", "--json"] + args, environment: s.env)
        #expect(run.status == 0, "\(run.stderr)")
        var out: [String: String] = [:]
        for line in run.outText.split(separator: "\n") {
            let json = try JSONParser.parse(Array(line.utf8))
            out[json["path"]?.stringValue ?? ""] = json["content"]?.stringValue
        }
        return out
    }

    /// With the .deb installed, a per-user install with
    /// `--host-path` to the package's host adopted the package's `.conf` in its
    /// receipt; uninstall then removed it (as root) or failed forever (as a user).
    /// In a temporary root: the package's files and its dpkg list under it.
    @Test func userInstall_withThePackagesHost_neverAdoptsOrRemovesThePackagesConf() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let lib = s.root + "/usr/lib/extension-bridge"
        try FileManager.default.createDirectory(atPath: lib, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: s.bin + "/extension-bridge-host", toPath: lib + "/extension-bridge-host")
        let conf = lib + "/extension-bridge-host.conf"
        let args = [
            "--browser", "chromium", "--host-path", lib + "/extension-bridge-host", "--extension-dir",
            repository + "/extension",
        ]
        // The package's .conf: what this install would write, already there and listed by dpkg.
        let packaged = try #require(try dryRun(s, args)[conf])
        try packaged.write(toFile: conf, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(
            atPath: s.root + "/var/lib/dpkg/info", withIntermediateDirectories: true)
        try
            "/.\n/usr\n/usr/lib/extension-bridge\n/usr/lib/extension-bridge/extension-bridge-host\n\(conf.dropFirst(s.root.count))\n"
            .write(toFile: s.root + "/var/lib/dpkg/info/extension-bridge.list", atomically: true, encoding: .utf8)

        let install = try runProcess(s.bin + "/extension-bridge", ["install"] + args, environment: s.env)
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.outText.contains("kept (the package's) " + conf), "\(install.outText)")
        let receipt = try String(
            contentsOfFile: s.home + "/.local/share/extension-bridge/install-receipt.json", encoding: .utf8)
        #expect(!receipt.contains("extension-bridge-host.conf"), "the receipt never names the package's file")
        let uninstall = try s.cli("uninstall")
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(try String(contentsOfFile: conf, encoding: .utf8) == packaged, "the package's file stays")

        // A receipt written before the fix, naming the package's file: uninstall still leaves it.
        #expect(try runProcess(s.bin + "/extension-bridge", ["install"] + args, environment: s.env).status == 0)
        let receiptPath = s.home + "/.local/share/extension-bridge/install-receipt.json"
        var document = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: receiptPath))))
        if case .object(var members) = document, case .array(var files)? = members["files"] {
            let digest = try runProcess("/usr/bin/sha256sum", [conf], environment: s.env).outText.prefix(64)
            files.append(["path": .string(conf), "sha256": .string(String(digest)), "kind": "configuration"])
            members["files"] = .array(files)
            document = .object(members)
        }
        try Data(JSONWriter.bytes(document)).write(to: URL(fileURLWithPath: receiptPath))
        let old = try s.cli("uninstall")
        #expect(old.status == 0, "\(old.stderr)")
        #expect(old.outText.contains("kept (the package's) " + conf), "\(old.outText)")
        #expect(try String(contentsOfFile: conf, encoding: .utf8) == packaged)

        // One that would change the package's file is refused before anything is written.
        let other = try runProcess(
            s.bin + "/extension-bridge", ["install", "--suite", "group.other"] + args, environment: s.env)
        #expect(other.status == 73, "\(other.stderr)")
        #expect(other.stderr.contains("belongs to the extension-bridge package"), "\(other.stderr)")
        #expect(try String(contentsOfFile: conf, encoding: .utf8) == packaged)
        #expect(
            !FileManager.default.fileExists(
                atPath: s.home + "/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json"),
            "nothing written")
    }

    /// With the .deb (`/usr/bin/extension-bridge`,
    /// `/usr/lib/extension-bridge/extension-bridge-host`), `install` looked for
    /// the host in `/usr/bin` only and exited 66. The same layout in a temporary folder.
    @Test func install_findsThePackagesHostInLibExtensionBridge_andSaysSo() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let usr = s.tmp.path + "/usr"
        try FileManager.default.createDirectory(atPath: usr + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            atPath: usr + "/lib/extension-bridge", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: s.bin + "/extension-bridge", toPath: usr + "/bin/extension-bridge")
        let host = usr + "/lib/extension-bridge/extension-bridge-host"
        try FileManager.default.copyItem(atPath: s.bin + "/extension-bridge-host", toPath: host)
        let install = try runProcess(
            usr + "/bin/extension-bridge", ["install", "--extension-dir", repository + "/extension"],
            environment: s.env)
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stderr.contains("using the host " + host), "\(install.stderr)")
        let manifest = try JSONParser.parse(
            Array(
                try Data(
                    contentsOf: URL(
                        fileURLWithPath: s.home + "/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json"
                    ))))
        #expect(manifest["path"]?.stringValue == host)
        // Beside the binary still wins (scripts/install.sh's layout), without a word.
        try FileManager.default.copyItem(
            atPath: s.bin + "/extension-bridge-host", toPath: usr + "/bin/extension-bridge-host")
        let beside = try runProcess(
            usr + "/bin/extension-bridge", ["install", "--extension-dir", repository + "/extension", "--dry-run"],
            environment: s.env)
        #expect(beside.status == 0)
        #expect(!beside.stderr.contains("using the host"))
        #expect(beside.outText.contains(#""path": ""# + usr + "/bin/extension-bridge-host"))
    }

    /// `install --system` over the .deb turned the
    /// package's /etc links into files and edited its host `.conf`, which dpkg
    /// silently reverts at the next upgrade (none is a conffile). In a temporary
    /// root through `--destdir` (the real /etc needs root and the package).
    @Test func systemInstall_overThePackagesFiles_isRefused_andChangesNothing() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let root = s.tmp.path + "/sysroot"
        let hosts = root + "/etc/chromium/native-messaging-hosts"
        let shared = root + "/usr/share/extension-bridge/native-messaging-hosts"
        for folder in [hosts, shared, root + "/usr/lib/extension-bridge", root + "/var/lib/dpkg/info"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(
            atPath: s.bin + "/extension-bridge-host", toPath: root + "/usr/lib/extension-bridge/extension-bridge-host")
        // The package's manifest, linked from /etc (relative here, so it resolves inside the temporary root).
        try "{\"from\": \"the package\"}\n".write(
            toFile: shared + "/org.extensionbridge.host.json", atomically: true, encoding: .utf8)
        let link = hosts + "/org.extensionbridge.host.json"
        try FileManager.default.createSymbolicLink(
            atPath: link,
            withDestinationPath:
                "../../../usr/share/extension-bridge/native-messaging-hosts/org.extensionbridge.host.json")
        let args = [
            "install", "--system", "--destdir", root, "--browser", "chromium", "--host-path",
            "/usr/lib/extension-bridge/extension-bridge-host", "--extension-dir", repository + "/extension",
        ]
        let refused = try runProcess(s.bin + "/extension-bridge", args, environment: s.env)
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains(link + " belongs to the extension-bridge package"), "\(refused.stderr)")
        #expect(refused.stderr.contains("scripts/package-deb.sh --extension-id"))
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != nil, "still the package's link")
        #expect(!FileManager.default.fileExists(atPath: root + "/usr/lib/extension-bridge/extension-bridge-host.conf"))

        // An absolute link into /usr/share/extension-bridge (the package's own form) is the package's too,
        // and the .conf dpkg lists: neither is written.
        try FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(
            atPath: link,
            withDestinationPath: "/usr/share/extension-bridge/native-messaging-hosts/org.extensionbridge.host.json")
        try "format = 1\n".write(
            toFile: root + "/usr/lib/extension-bridge/extension-bridge-host.conf", atomically: true, encoding: .utf8)
        try "/usr/lib/extension-bridge/extension-bridge-host.conf\n".write(
            toFile: root + "/var/lib/dpkg/info/extension-bridge.list", atomically: true, encoding: .utf8)
        let again = try runProcess(s.bin + "/extension-bridge", args, environment: s.env)
        #expect(again.status == 73, "\(again.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != nil)
        #expect(
            try String(contentsOfFile: root + "/usr/lib/extension-bridge/extension-bridge-host.conf", encoding: .utf8)
                == "format = 1\n")
    }

    /// The browser starts the host with only its own arguments and the
    /// user's environment: the group must come from what `install` wrote.
    @Test func install_suite_isServedByTheHostTheBrowserStarts() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let group = "group.org.example.other"
        let install = try s.cli(
            "--suite", group, "install", "--browser", "chromium", "--extension-dir", repository + "/extension")
        #expect(install.status == 0, "\(install.stderr)")
        let conf = try String(contentsOfFile: s.bin + "/extension-bridge-host.conf", encoding: .utf8)
        #expect(conf.contains("group = \(group)\n"))
        // The two groups hold different settings (no EXTENSION_BRIDGE_CONTAINER: real group folders under HOME).
        let userEnv = ["HOME": s.home, "PATH": "/usr/bin:/bin"]
        #expect(
            try runProcess(s.bin + "/extension-bridge", ["--suite", group, "enable"], environment: userEnv).status == 0)
        #expect(try runProcess(s.bin + "/extension-bridge", ["disable"], environment: userEnv).status == 0)
        let origin = "chrome-extension://honlgoealnaplikdeeidpcknncfcnfmo/"
        let input =
            frameBytes(["action": "hello", "id": 1] as JSONValue)
            + frameBytes(["action": "getSettings", "id": 2] as JSONValue)
        let host = try runProcess(s.bin + "/extension-bridge-host", [origin], environment: userEnv, input: input)
        #expect(host.status == 0, "\(host.stderr)")
        let replies = try splitFrames(host.stdout)
        #expect(replies.first?["group"] == .string(group))
        #expect(replies.last?["settings"]?["enabled"] == true)
        let doctor = try s.cli("doctor", "--browser", "chromium", "--extension-dir", repository + "/extension")
        #expect(doctor.outText.contains("group \(group)"), "\(doctor.outText)")
    }

    /// Installs made before the configuration file wrote only the allowlist
    /// file: their host keeps serving the callers it names.
    @Test func legacyAllowlistFile_stillServes() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let origin = "chrome-extension://honlgoealnaplikdeeidpcknncfcnfmo/"
        try "# Callers extension-bridge-host serves\n\(origin)\n".write(
            toFile: s.bin + "/extension-bridge-host.allowed", atomically: true, encoding: .utf8)
        let host = try runProcess(
            s.bin + "/extension-bridge-host", [origin], environment: s.env,
            input: frameBytes(["action": "hello", "id": 1] as JSONValue))
        #expect(try splitFrames(host.stdout).first?["status"] == "success", "\(host.stderr)")
        // A configuration file, once written, is what counts.
        try "format = 1\nallow = someone@else\n".write(
            toFile: s.bin + "/extension-bridge-host.conf", atomically: true, encoding: .utf8)
        let refused = try runProcess(
            s.bin + "/extension-bridge-host", [origin], environment: s.env,
            input: frameBytes(["action": "hello", "id": 1] as JSONValue))
        #expect(refused.status == 3)
        #expect(try splitFrames(refused.stdout).first?["code"] == "caller_not_allowed")
    }

    @Test func userDataDir_dryRun_andUninstall() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let profile = s.tmp.path + "/profile"
        let dry = try s.cli(
            "install", "--user-data-dir", profile, "--extension-dir", repository + "/extension", "--dry-run")
        #expect(dry.status == 0)
        #expect(dry.outText.contains("would write \(profile)/NativeMessagingHosts/org.extensionbridge.host.json"))
        #expect(!FileManager.default.fileExists(atPath: profile))
        #expect(
            try s.cli("install", "--user-data-dir", profile, "--extension-dir", repository + "/extension").status == 0)
        #expect(
            try s.cli("doctor", "--user-data-dir", profile, "--extension-dir", repository + "/extension").status == 0)
        let removed = try s.cli("uninstall")
        #expect(removed.outText.split(separator: "\n").count == 2)
        #expect(
            !FileManager.default.fileExists(atPath: profile + "/NativeMessagingHosts/org.extensionbridge.host.json"))
        #expect(!FileManager.default.fileExists(atPath: s.bin + "/extension-bridge-host.allowed"))
        #expect(
            try s.cli("doctor", "--user-data-dir", profile, "--extension-dir", repository + "/extension").status == 1)
    }

    @Test func doctor_hostThatExitsWithoutReading_isReportedNotASigpipe() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        // A host that closes stdin at once and exits: doctor's hello write meets a closed pipe.
        let fake = s.tmp.path + "/fake-host"
        try "#!/bin/sh\nexec 0<&-\nexit 3\n".write(toFile: fake, atomically: true, encoding: .utf8)
        chmod(fake, 0o755)
        #expect(
            try s.cli(
                "install", "--browser", "firefox", "--host-path", fake, "--extension-dir", repository + "/extension"
            )
            .status == 0)
        for _ in 0..<10 {
            let doctor = try s.cli("doctor", "--browser", "firefox", "--extension-dir", repository + "/extension")
            #expect(doctor.status == 1)
            #expect(doctor.outText.contains("wrote no reply (exit 3)"))
        }
    }

    @Test func badOptions_areUsageErrors() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        #expect(
            try s.cli("install", "--browser", "netscape", "--extension-dir", repository + "/extension").status == 64)
        #expect(
            try s.cli(
                "install", "--host-name", "Bad..Name", "--browser", "chromium", "--extension-dir",
                repository + "/extension"
            )
            .status == 64)
        #expect(try s.cli("install", "--extension-dir", "/nonexistent").status == 66)
    }

    @Test func crx_dryRun_makesNoKey_andNeverShowsTheKeyOrTheCRX_thenUninstallRemovesWhatInstallMade() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let args = ["install", "--browser", "chromium", "--extension-dir", repository + "/extension", "--crx"]
        let key = s.home + "/.local/share/extension-bridge/keys/extension-bridge.pem"
        let first = try runProcess(s.bin + "/extension-bridge", args + ["--dry-run"], environment: s.env)
        #expect(first.status == 0)
        #expect(first.stderr.contains("would make this machine's signing key"))
        #expect(!FileManager.default.fileExists(atPath: key), "a dry run made the key")
        let install = try runProcess(s.bin + "/extension-bridge", args, environment: s.env)
        #expect(install.status == 0, "\(install.stderr)")
        #expect(FileManager.default.fileExists(atPath: key))
        let external = try FileManager.default.contentsOfDirectory(
            atPath: s.home + "/.config/chromium/External Extensions")
        #expect(external.count == 1)
        let id = String(external[0].dropLast(".json".count))
        let manifest = try String(
            contentsOfFile: s.home + "/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json",
            encoding: .utf8)
        #expect(manifest.contains("chrome-extension://\(id)/"), "the host allows the CRX's id")
        for json in [false, true] {
            let dry = try runProcess(
                s.bin + "/extension-bridge", args + ["--dry-run"] + (json ? ["--json"] : []), environment: s.env)
            #expect(dry.status == 0)
            #expect(!dry.outText.contains("PRIVATE KEY") && !dry.outText.contains("Cr24"), "\(dry.outText)")
            #expect(dry.outText.contains("extension-bridge.crx"))
        }
        #expect(try s.cli("uninstall", "--remove-key").status == 0)
        #expect(
            !FileManager.default.fileExists(atPath: key), "install made the key, so uninstall --remove-key removes it")
        #expect(
            (try? FileManager.default.contentsOfDirectory(atPath: s.home + "/.config/chromium/External Extensions"))?
                .isEmpty ?? true)
    }

    /// An install that fails half way (`~/.mozilla` a regular file: exit 74 after Chromium's
    /// manifest) and two installs at once (six rounds) leave nothing `uninstall` cannot remove.
    @Test func aFailedInstall_andInstallsAtOnce_leaveNothingUninstallCannotRemove() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let chromium = s.home + "/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json"
        let firefox = s.home + "/.mozilla/native-messaging-hosts/org.extensionbridge.host.json"
        try "a file".write(toFile: s.home + "/.mozilla", atomically: true, encoding: .utf8)
        let failed = try s.cli("install", "--browser", "chromium,firefox", "--extension-dir", repository + "/extension")
        #expect(failed.status == 74, "\(failed.stderr)")
        #expect(FileManager.default.fileExists(atPath: chromium))
        #expect(try s.cli("uninstall").status == 0)
        #expect(!FileManager.default.fileExists(atPath: chromium), "the failed install's manifest stayed")
        try FileManager.default.removeItem(atPath: s.home + "/.mozilla")

        for round in 0..<6 {
            let runs = Locked([Finished]())
            let threads = ["chromium", "firefox"].map { browser in
                Thread {
                    let run = try? runProcess(
                        s.bin + "/extension-bridge",
                        ["install", "--browser", browser, "--extension-dir", repository + "/extension"],
                        environment: s.env)
                    runs.set(runs.value + (run.map { [$0] } ?? []))
                }
            }
            threads.forEach { $0.start() }
            while !threads.allSatisfy(\.isFinished) { usleep(1000) }
            #expect(runs.value.map(\.status) == [0, 0], "round \(round): \(runs.value.map(\.stderr))")
            #expect(try s.cli("uninstall").status == 0)
            for path in [chromium, firefox] {
                #expect(!FileManager.default.fileExists(atPath: path), "round \(round): \(path) was left behind")
            }
        }
    }

    /// `install --user-data-dir prof` records the absolute folder: `uninstall` run elsewhere
    /// removes what install wrote, never a `prof/…` of the folder it runs in.
    @Test func relativeUserDataDir_isRecordedAbsolute() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let work = s.tmp.path + "/work"
        let elsewhere = s.tmp.path + "/elsewhere"
        let manifest = "/prof/NativeMessagingHosts/org.extensionbridge.host.json"
        for folder in [work + "/prof", elsewhere + "/prof/NativeMessagingHosts"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        func cli(in folder: String, _ args: String) throws -> Finished {
            try runProcess(
                "/bin/sh", ["-c", "cd \"$0\" && exec \"$1\"/extension-bridge " + args, folder, s.bin],
                environment: s.env)
        }
        let install = try cli(in: work, "install --user-data-dir prof --extension-dir '\(repository)/extension'")
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.outText.contains("written   " + work + manifest), "\(install.outText)")
        try FileManager.default.copyItem(atPath: work + manifest, toPath: elsewhere + manifest)
        let uninstall = try cli(in: elsewhere, "uninstall")
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(uninstall.outText.contains("removed   " + work + manifest), "\(uninstall.outText)")
        #expect(!FileManager.default.fileExists(atPath: work + manifest))
        #expect(FileManager.default.fileExists(atPath: elsewhere + manifest), "a file install never wrote went")
    }

    /// `install --crx` makes the machine key; `pack` signs a release with it; `uninstall` then
    /// leaves the key (it removes the CRX and the External Extensions file install wrote).
    @Test func aKeyThatSignedARelease_survivesUninstall() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let key = s.home + "/.local/share/extension-bridge/keys/extension-bridge.pem"
        let install = try s.cli(
            "install", "--browser", "chromium", "--crx", "--extension-dir", repository + "/extension")
        #expect(install.status == 0, "\(install.stderr)")
        let pack = try s.cli(
            "pack", "--extension-dir", repository + "/extension", "--out", s.tmp.path + "/dist", "--update-url",
            "https://example.com/eb")
        #expect(pack.status == 0, "\(pack.stderr)")
        let uninstall = try s.cli("uninstall", "--remove-key")
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(FileManager.default.fileExists(atPath: key), "the key that signed a release was removed")
        #expect(!uninstall.outText.contains(key))
        #expect(
            (try? FileManager.default.contentsOfDirectory(atPath: s.home + "/.config/chromium/External Extensions"))?
                .isEmpty ?? true)
    }

    /// Installs the extension into Chromium with `--crx` and returns its id (the External Extensions file's name).
    private func installCRX(_ s: Setup) throws -> String {
        let install = try s.cli(
            "install", "--browser", "chromium", "--extension-dir", repository + "/extension", "--crx")
        #expect(install.status == 0, "\(install.stderr)")
        let external = try FileManager.default.contentsOfDirectory(
            atPath: s.home + "/.config/chromium/External Extensions")
        return String((external.first ?? "").dropLast(".json".count))
    }

    /// An install without `--crx` (doctor's own fix line, `--log-level`) keeps allowing the extension
    /// `install --crx` put into Chromium while its External Extensions file is there.
    @Test func installWithoutCRX_keepsAllowingTheExtensionTheCRXInstalled() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let id = try installCRX(s)
        let manifest = s.home + "/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json"
        try FileManager.default.removeItem(atPath: manifest)
        let again = try s.cli(
            "install", "--browser", "chromium", "--extension-dir", repository + "/extension", "--log-level", "debug")
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOfFile: manifest, encoding: .utf8).contains("chrome-extension://\(id)/"))
        let configuration = try String(contentsOfFile: s.bin + "/extension-bridge-host.conf", encoding: .utf8)
        #expect(configuration.contains("chrome-extension://\(id)/"), "\(configuration)")
    }

    /// A manifest and host configuration that allow our unpacked id but not the CRX Chromium has
    /// installed: doctor says so (not "ok"), and its fix line makes it answer ok again.
    @Test func doctor_reportsAnInstalledExtensionTheHostDoesNotAllow_andItsFixWorks() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let id = try installCRX(s)
        let manifest = s.home + "/.config/chromium/NativeMessagingHosts/org.extensionbridge.host.json"
        let configuration = s.bin + "/extension-bridge-host.conf"
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest))) as? [String: Any])
        json["allowed_origins"] = ["chrome-extension://honlgoealnaplikdeeidpcknncfcnfmo/"]
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: manifest))
        let lines = try String(contentsOfFile: configuration, encoding: .utf8).split(separator: "\n")
        try (lines.filter { !$0.contains(id) }.joined(separator: "\n") + "\n")
            .write(toFile: configuration, atomically: true, encoding: .utf8)
        let doctor = try s.cli(
            "doctor", "--browser", "chromium", "--extension-dir", repository + "/extension", "--json")
        #expect(doctor.status == 1, "\(doctor.outText)")
        let checks = try JSONParser.parse(doctor.stdout)["checks"]?.arrayValue ?? []
        let refused = checks.first { ($0["detail"]?.stringValue ?? "").contains("chrome-extension://\(id)/") }
        #expect(refused?["status"] == "error", "\(doctor.outText)")
        #expect(refused?["fix"] == "extension-bridge install --browser chromium")
        #expect(
            try s.cli("install", "--browser", "chromium", "--extension-dir", repository + "/extension").status == 0)
        let after = try s.cli("doctor", "--browser", "chromium", "--extension-dir", repository + "/extension")
        #expect(after.status == 0, "\(after.outText)")
    }

    /// A bridge.json, project folder, `extension/` or `keys/` others can write is refused by install
    /// and pack, as a host build there is: bridge.json names the extensions the host serves and the
    /// group they reach. Nothing is written, and the message names the path and its `chmod`.
    @Test func installAndPack_refuseAProjectOthersCanWrite() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let project = s.tmp.path + "/project"
        let config = try writeBridge(s, project)
        for folder in ["extension", "keys"] {
            try FileManager.default.createDirectory(atPath: project + "/" + folder, withIntermediateDirectories: true)
        }
        for path in [config, project, project + "/extension", project + "/keys"] {
            let mode: Int16 = path == config ? 0o644 : 0o755
            chmod(path, mode_t(mode | 0o022))
            for verb in [["install", "--browser", "chromium"], ["pack", "--out", s.tmp.path + "/dist"]] {
                let refused = try runProcess(
                    s.bin + "/extension-bridge", verb + ["--config", config], environment: s.env)
                #expect(refused.status == 77, "\(verb) \(path): \(refused.stderr)")
                #expect(refused.stderr.contains("chmod go-w " + path), "\(refused.stderr)")
            }
            chmod(path, mode_t(mode))
        }
        #expect(files(under: s.home) == [], "nothing written: \(files(under: s.home) ?? [])")
        #expect(!FileManager.default.fileExists(atPath: s.tmp.path + "/dist"))
        let install = try s.cli("install", "--config", config, "--browser", "chromium")
        #expect(install.status == 0, "\(install.stderr)")
    }

    /// A host configuration others can write is not "ok": it holds the allowed callers and the group.
    @Test func doctor_reportsAHostConfigurationOthersCanWrite() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        #expect(try s.cli("install", "--browser", "chromium", "--extension-dir", repository + "/extension").status == 0)
        let configuration = s.bin + "/extension-bridge-host.conf"
        chmod(configuration, 0o666)
        let doctor = try s.cli(
            "doctor", "--browser", "chromium", "--extension-dir", repository + "/extension", "--json")
        #expect(doctor.status == 1, "\(doctor.outText)")
        let checks = try JSONParser.parse(doctor.stdout)["checks"]?.arrayValue ?? []
        let row = checks.first { ($0["detail"]?.stringValue ?? "").contains("configuration " + configuration) }
        #expect(row?["status"] == "error", "\(doctor.outText)")
        #expect(row?["fix"]?.stringValue == "chmod go-w " + configuration)
        // Writable by its group only (here root's own, private group): the host serves nobody from
        // it, and doctor says so instead of passing it as a private group's.
        chmod(configuration, 0o664)
        let group = try s.cli(
            "doctor", "--browser", "chromium", "--extension-dir", repository + "/extension", "--json")
        let groupRow = (try JSONParser.parse(group.stdout)["checks"]?.arrayValue ?? []).first {
            ($0["detail"]?.stringValue ?? "").contains("configuration " + configuration)
        }
        #expect(group.status == 1 && groupRow?["status"] == "error", "\(group.outText)")
        #expect(groupRow?["fix"]?.stringValue == "chmod go-w " + configuration)
        chmod(configuration, 0o644)
        #expect(try s.cli("doctor", "--browser", "chromium", "--extension-dir", repository + "/extension").status == 0)
    }

    /// A link at the host manifest's path to an unrelated file: refused as what it is (a link), and
    /// before `--crx` makes the machine's signing key, so the refused install makes nothing.
    @Test func aLinkedManifest_isRefusedAsALink_beforeAnyKeyIsMade() throws {
        let s = try Setup()
        defer { s.tmp.remove() }
        let folder = s.home + "/.config/chromium/NativeMessagingHosts"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "unrelated\n".write(toFile: s.tmp.path + "/notes.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/org.extensionbridge.host.json", withDestinationPath: s.tmp.path + "/notes.txt")
        let install = try s.cli(
            "install", "--browser", "chromium", "--extension-dir", repository + "/extension", "--crx")
        #expect(install.status == 73, "\(install.stderr)")
        #expect(install.stderr.contains("is a link to " + s.tmp.path + "/notes.txt"), "\(install.stderr)")
        #expect(!install.stderr.contains("another program's") && !install.stderr.contains("signing key"))
        #expect(
            files(under: s.home) == [
                ".config", ".config/chromium", ".config/chromium/NativeMessagingHosts",
                ".config/chromium/NativeMessagingHosts/org.extensionbridge.host.json",
            ])
    }
}
