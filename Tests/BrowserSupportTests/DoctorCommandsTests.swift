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
