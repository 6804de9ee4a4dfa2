import Foundation
import TestSupport
import Testing

@testable import BrowserSupport

@Suite struct DoctorCommandsTests {
    let doctor = Doctor(
        home: "/h", hostName: "org.extensionbridge.host",
        identity: ExtensionIdentity(chromiumIDs: [String(repeating: "a", count: 32)], firefoxIDs: []),
        passEnvironment: [:])

    @Test func summary_saysEverythingChecksOut_onlyWithoutWarningsOrErrors() {
        func row(_ status: DoctorCheck.Status) -> DoctorCheck {
            DoctorCheck(browser: "chromium", scope: "user", path: "/p", status: status, detail: "", fix: nil)
        }
        #expect(Doctor.summary([row(.ok), row(.absent)]) == "Everything checks out.")
        #expect(Doctor.summary([row(.ok), row(.warning)]).hasPrefix("No errors, 1 warning(s)"))
        #expect(Doctor.summary([row(.error), row(.warning)]).hasPrefix("1 error(s), 1 warning(s)"))
    }

    @Test func commands_nameCrxForTheExtension_andTheBridge() {
        let chromium = BrowserCatalog.named("chromium")
        #expect(doctor.command(installing: nil, crx: true) == "extension-bridge install --crx")
        #expect(
            doctor.command(installing: chromium, userDataDirectory: "/u d", crx: true)
                == "extension-bridge install --crx --browser chromium --user-data-dir '/u d'")
        var project = doctor
        project.installCommand = "cd '/p' && scripts/install.sh"
        #expect(
            project.command(installing: chromium, crx: true) == "cd '/p' && scripts/install.sh --crx --browser chromium"
        )
    }

    /// A fix line is a command the user has: the bare name only when it is this program on PATH
    /// (the file itself or a link to it); else this program's path, one shell word.
    @Test func theToolInFixLines_isTheNameOnlyWhenPATHFindsThisProgram() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let program = folder.write("my bin/extension-bridge", "#!/bin/sh\n")
        chmod(program, 0o755)
        let other = folder.write("other/extension-bridge", "#!/bin/sh\n")
        chmod(other, 0o755)
        try FileManager.default.createDirectory(atPath: folder.path + "/link", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/link/extension-bridge", withDestinationPath: program)
        let quoted = "'" + program + "'"
        #expect(
            Doctor.toolCommand(executable: program, searchPath: folder.path + "/my bin:/usr/bin") == "extension-bridge")
        #expect(Doctor.toolCommand(executable: program, searchPath: folder.path + "/link") == "extension-bridge")
        #expect(Doctor.toolCommand(executable: program, searchPath: "/usr/bin:/bin") == quoted)
        #expect(Doctor.toolCommand(executable: program, searchPath: nil) == quoted)
        #expect(
            Doctor.toolCommand(executable: program, searchPath: folder.path + "/other:" + folder.path + "/my bin")
                == quoted)
        var located = doctor
        located.tool = quoted
        #expect(located.noBrowserCheck().fix == "install a browser, then run: \(quoted) install --crx")
        #expect(
            located.command(installing: BrowserCatalog.named("chromium")) == quoted + " install --browser chromium")
    }

    @Test func noBrowser_isAnErrorWhoseFixInstallsTheExtensionToo() {
        let row = doctor.noBrowserCheck()
        #expect(row.status == .error)
        #expect(row.fix == "install a browser, then run: extension-bridge install --crx")
    }

    @Test func hostCheck_ofAHostInstallNeverConfigured_isAWarning_andRunsNothing() {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        // A program that would fail the check if it were run.
        let host = folder.write("extension-bridge-host", "#!/bin/sh\nexit 3\n")
        chmod(host, 0o755)
        let row = doctor.hostCheck(hostPath: host)
        #expect(row.status == .warning)
        #expect(row.detail.contains("not registered with any browser yet"))
    }
}
