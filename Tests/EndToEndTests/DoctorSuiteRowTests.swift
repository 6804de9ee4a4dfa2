import BridgeJSON
import Foundation
import TestSupport
import Testing

/// doctor's `suite` row, through the built binaries: a vocabulary the host cannot read is a
/// warning naming the key, the type found and the `write` that fixes it; that fix, pasted, clears it.
@Suite struct DoctorSuiteRowTests {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    @Test func vocabularyOfTheWrongType_isAWarningWhoseFixWorks() throws {
        let s = try InstallDoctorTests.Setup()
        defer { s.tmp.remove() }
        // The group's own folder under HOME, as the host a browser starts reads it.
        var env = s.env
        env["EXTENSION_BRIDGE_CONTAINER"] = nil
        let suite = s.home + "/.local/share/group.org.extensionbridge.shared/suite.json"
        #expect(try s.cli(environment: env, "write", "vocabulary", "-array", "blue", "blauw").status == 0)
        let doctor = try s.cli(environment: env, "doctor", "--json")
        let row = (try JSONParser.parse(doctor.stdout)["checks"]?.arrayValue ?? []).first { $0["scope"] == "suite" }
        #expect(row?["status"] == "warning", "\(doctor.stdout)")
        #expect(row?["detail"]?.stringValue?.hasPrefix("vocabulary is a value of type array") == true)
        let fix = row?["fix"]?.stringValue ?? ""
        #expect(fix == "extension-bridge write vocabulary -dict blue blauw")
        #expect(try runProcess("/bin/sh", ["-c", fix], environment: env).status == 0)
        let again = try s.cli(environment: env, "doctor")
        #expect(again.outText.contains("warning  " + suite + ": the keys the host reads"), "\(again.outText)")
        #expect(again.outText.contains("the extension is off (turn it on with: extension-bridge enable)"))
        // Off is a warning, with the enable as its fix: never "Everything checks out." while pages do not change.
        #expect(again.outText.contains("\n  -: extension-bridge enable\n"), "\(again.outText)")
        #expect(!again.outText.contains("Everything checks out."))
        #expect(try s.cli(environment: env, "enable").status == 0)
        let on = try s.cli(environment: env, "doctor", "--json")
        let suiteRow = (try JSONParser.parse(on.stdout)["checks"]?.arrayValue ?? []).first { $0["scope"] == "suite" }
        #expect(suiteRow?["status"] == "ok" && suiteRow?["fix"] == .null, "\(on.stdout)")
    }

    /// The host a browser starts serves the group its configuration names (`install --suite`) and
    /// does not see an `EXTENSION_BRIDGE_CONTAINER` set in a shell: doctor's suite row checks that
    /// group, and says so of such a variable (a warning, with a fix that runs doctor without it),
    /// instead of "the extension is on" for a suite no page reads.
    @Test func theSuiteRow_isTheGroupTheInstalledHostServes_notTheShells() throws {
        let s = try InstallDoctorTests.Setup()
        defer { s.tmp.remove() }
        var env = s.env
        env["EXTENSION_BRIDGE_CONTAINER"] = nil
        #expect(try s.cli(environment: env, "enable").status == 0)  // the default group: on
        let install = try s.cli(
            environment: env, "install", "--browser", "chromium", "--extension-dir", repository + "/extension",
            "--suite", "group.other.test")
        #expect(install.status == 0, "\(install.stderr)")
        let other = try s.cli(environment: env, "doctor", "--extension-dir", repository + "/extension")
        let otherFolder = s.home + "/.local/share/group.other.test"
        #expect(other.outText.contains("warning  " + otherFolder + ": no suite yet"), "\(other.outText)")
        #expect(other.outText.contains("-: extension-bridge enable --suite group.other.test\n"), "\(other.outText)")
        #expect(try s.cli(environment: env, "--suite", "group.other.test", "enable").status == 0)
        let on = try s.cli(environment: env, "doctor", "--extension-dir", repository + "/extension")
        #expect(
            on.outText.contains(
                otherFolder + "/suite.json: the keys the host reads have types it reads; the extension is on"))
        // The same, seen through a container set in this shell only.
        #expect(try s.cli("enable").status == 0)
        let shell = try s.cli("--suite", "group.other.test", "doctor", "--extension-dir", repository + "/extension")
        #expect(shell.outText.contains("warning  " + s.tmp.path + "/c/suite.json"), "\(shell.outText)")
        #expect(shell.outText.contains("EXTENSION_BRIDGE_CONTAINER=" + s.tmp.path + "/c, set in this shell only"))
        #expect(shell.outText.contains("-: unset EXTENSION_BRIDGE_CONTAINER; extension-bridge doctor\n"))
        #expect(!shell.outText.contains("Everything checks out."))
    }

    /// `doctor --config bridge.json` reads the bridge's own group (the one its host serves), and its
    /// fix names that group; an explicit `--suite` still wins.
    @Test func withConfig_theSuiteRowIsTheBridgesGroup() throws {
        let s = try InstallDoctorTests.Setup()
        defer { s.tmp.remove() }
        var env = s.env
        env["EXTENSION_BRIDGE_CONTAINER"] = nil
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let project = s.tmp.path + "/ReadLater"
        let made = try s.cli(
            environment: env, "new", "ReadLater", "--host-name", "com.example.readlater", "--group",
            "group.com.example.readlater", "--dir", project, "--package-path", repository)
        try #require(made.status == 0, "\(made.stderr)")
        let ownSuite = s.home + "/.local/share/group.com.example.readlater/suite.json"
        let off = try s.cli(environment: env, "doctor", "--config", project + "/bridge.json")
        let ownGroup = s.home + "/.local/share/group.com.example.readlater"
        #expect(
            off.outText.contains(ownGroup + ": no suite yet: nothing was written to group.com.example.readlater"),
            "\(off.outText)")
        #expect(
            off.outText.contains("off (turn it on with: extension-bridge enable --suite group.com.example.readlater)"))
        #expect(try s.cli(environment: env, "--suite", "group.com.example.readlater", "enable").status == 0)
        let on = try s.cli(environment: env, "doctor", "--config", project + "/bridge.json")
        #expect(on.outText.contains(ownSuite + ": the keys the host reads have types it reads; the extension is on"))
        let given = try s.cli(environment: env, "--suite", "group.b", "doctor", "--config", project + "/bridge.json")
        #expect(given.outText.contains(s.home + "/.local/share/group.b: no suite yet"), "\(given.outText)")
        // Installed with --suite, the bridge's host serves that group: doctor --config checks it, not
        // bridge.json's (where the extension is on, but no page reads it).
        let install = try s.cli(
            environment: env, "install", "--config", project + "/bridge.json", "--browser", "chromium", "--host-path",
            s.bin + "/extension-bridge-host", "--suite", "group.c")
        #expect(install.status == 0, "\(install.stderr)")
        let served = try s.cli(
            environment: env, "doctor", "--config", project + "/bridge.json", "--browser", "chromium")
        #expect(served.outText.contains(s.home + "/.local/share/group.c: no suite yet"), "\(served.outText)")
        #expect(!served.outText.contains("Everything checks out."))
    }

    /// A container the CLI refuses (here another user's) is doctor's `suite` row, an error; the
    /// browsers' and the host's rows are still printed, and doctor exits 1 as for any error.
    @Test func aContainerTheCLIRefuses_isAnErrorRow_andTheRestIsStillChecked() throws {
        let s = try InstallDoctorTests.Setup()
        defer { s.tmp.remove() }
        #expect(try s.cli("write", "k", "v").status == 0)
        #expect(try runProcess("/bin/chown", ["nobody", s.tmp.path + "/c"], environment: s.env).status == 0)
        let doctor = try s.cli("doctor", "--json")
        #expect(doctor.status == 1, "\(doctor.stderr)")
        let checks = try JSONParser.parse(doctor.stdout)["checks"]?.arrayValue ?? []
        let row = checks.first { $0["scope"] == "suite" }
        #expect(row?["status"] == "error", "\(doctor.stdout)")
        #expect(row?["detail"]?.stringValue?.contains("refusing the group container") == true)
        #expect(checks.contains { $0["scope"] != "suite" }, "the other rows are still there")
    }
}
